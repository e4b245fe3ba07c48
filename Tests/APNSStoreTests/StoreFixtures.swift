import APNSCore
import APNSStore
import DeliveryFixtures
import Foundation
import Testing

/// The two store implementations, so each behaviour test runs against both.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case memory

    var testDescription: String { rawValue }

    func make(retention: RetentionPolicy = RetentionPolicy(), clock: any WallClock = SystemClock()) throws
        -> any DeliveryStore
    {
        switch self {
        case .sqlite:
            return try SQLiteDeliveryStore(path: TemporaryDirectory.make().path(SQLiteDeliveryStore.fileName),
                                           retention: retention, clock: clock)
        case .memory:
            return InMemoryDeliveryStore(retention: retention, clock: clock)
        }
    }
}

/// A fresh directory under the system temporary directory.
struct TemporaryDirectory {
    let url: URL

    static func make() throws -> TemporaryDirectory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("apns-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return TemporaryDirectory(url: url)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
