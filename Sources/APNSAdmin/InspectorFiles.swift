import Foundation

/// The web inspector's static files (HTML, CSS, JS under `Sources/APNSAdmin/Inspector/`), read once from the
/// module's resource bundle. Only files in that directory are served; names with a slash never match.
public struct InspectorFiles: Sendable {
    private let files: [String: Data]

    /// Loads the bundled inspector.
    public static func bundled() -> InspectorFiles {
        guard let directory = Bundle.module.url(forResource: "Inspector", withExtension: nil) else {
            return InspectorFiles(files: [:])
        }
        return InspectorFiles(directory: directory)
    }

    public init(directory: URL) {
        var files: [String: Data] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names {
            if let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) {
                files[name] = data
            }
        }
        self.init(files: files)
    }

    init(files: [String: Data]) {
        self.files = files
    }

    public var names: [String] { files.keys.sorted() }

    func response(for name: String) -> AdminResponse {
        guard let data = files[name] else { return .error(404, "no such file") }
        var response = AdminResponse(status: 200, contentType: Self.contentType(name), body: data)
        response.extraHeaders.append(.init(name: "Cache-Control", value: "no-cache"))
        response.extraHeaders.append(.init(
            name: "Content-Security-Policy",
            value: "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'"))
        response.extraHeaders.append(.init(name: "X-Content-Type-Options", value: "nosniff"))
        return response
    }

    static func contentType(_ name: String) -> String {
        switch (name as NSString).pathExtension {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        default: return "application/octet-stream"
        }
    }
}
