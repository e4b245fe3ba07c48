import APNSCore
import Foundation

/// The web inspector's static files (HTML, CSS, JS under `Sources/APNSAdmin/Inspector/`), read from the module's
/// resource bundle on the first request for one of them, not at start-up: the bundle lookup and the reads stay off
/// the path to the listening line. Only files in that directory are served; names with a slash never match.
public struct InspectorFiles: Sendable {
    /// Where the files are; nil: there are none.
    private let locate: @Sendable () -> URL?
    /// The files once read (shared by copies of this value).
    private let loaded: Locked<[String: Data]?>

    /// The bundled inspector.
    public static func bundled() -> InspectorFiles {
        InspectorFiles(locate: { Bundle.module.url(forResource: "Inspector", withExtension: nil) }, files: nil)
    }

    /// The files of `directory`.
    public init(directory: URL) {
        self.init(locate: { directory }, files: nil)
    }

    init(files: [String: Data]) {
        self.init(locate: { nil }, files: files)
    }

    private init(locate: @escaping @Sendable () -> URL?, files: [String: Data]?) {
        self.locate = locate
        loaded = Locked(files)
    }

    private var files: [String: Data] {
        loaded.withLock { loaded in
            if let loaded { return loaded }
            let files = locate().map(Self.read(directory:)) ?? [:]
            loaded = files
            return files
        }
    }

    private static func read(directory: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names {
            if let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) {
                files[name] = data
            }
        }
        return files
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
