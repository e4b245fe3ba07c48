import APNSCore
import ActivitySourceParser
import Foundation

/// Locates the fixture Swift files next to this test file (no SwiftPM resources: the folder is excluded from the
/// target and read from disk).
enum Fixtures {
    static let folder: String = {
        let thisFile = URL(fileURLWithPath: #filePath)
        return thisFile.deletingLastPathComponent().appendingPathComponent("Fixtures").path
    }()

    static func path(_ name: String) -> String {
        (folder as NSString).appendingPathComponent(name)
    }

    /// The parse of the whole fixture folder, shared by tests.
    static let corpus: ActivitySourceParseResult = {
        do {
            return try ActivitySourceParser.parse(paths: [folder])
        } catch {
            fatalError("fixture folder unreadable: \(error)")
        }
    }()

    static func schema(_ name: String) -> ActivitySchema? {
        corpus.schemas.first { $0.attributesType == name }
    }
}
