import APNSCore
import Foundation

/// The web inspector's static files (HTML, CSS, JS under `Sources/APNSMock/Admin/Inspector/`), compiled into the binary
/// (Package.swift: `.embedInCode("Inspector")`), so a copied binary serves them with no bundle or source tree beside
/// it. Turned into responses on the first request for one of them, not at start-up. Only these files are served;
/// names with a slash never match.
package struct InspectorFiles: Sendable {
    /// The files compiled in. A file added to `Inspector/` is listed here too (InspectorFilesTests checks that the
    /// two agree).
    static let embeddedFiles: [String: [UInt8]] = [
        "index.html": PackageResources.index_html,
        "inspector.css": PackageResources.inspector_css,
        "inspector.js": PackageResources.inspector_js,
        "activities.js": PackageResources.activities_js,
    ]

    /// Where the files are; nil: the compiled-in ones.
    private let directory: URL?
    /// The files once read (shared by copies of this value).
    private let loaded: Locked<[String: Data]?>

    /// The inspector compiled into the binary.
    package static func bundled() -> InspectorFiles {
        InspectorFiles(directory: nil, files: nil)
    }

    /// The files of `directory`, read on the first request.
    package init(directory: URL) {
        self.init(directory: directory, files: nil)
    }

    init(files: [String: Data]) {
        self.init(directory: nil, files: files)
    }

    private init(directory: URL?, files: [String: Data]?) {
        self.directory = directory
        loaded = Locked(files)
    }

    private var files: [String: Data] {
        loaded.withLock { loaded in
            if let loaded { return loaded }
            let files = directory.map(Self.read(directory:)) ?? Self.embeddedFiles.mapValues { Data($0) }
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

    package var names: [String] { files.keys.sorted() }

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
