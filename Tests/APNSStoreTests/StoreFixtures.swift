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

/// The directories `TemporaryDirectory.make` created; removed when the test process exits (a store may still use
/// its directory until the end of a test, so none is removed earlier).
private let createdDirectories = Locked<[String]>([])

private func removeCreatedDirectories() {
    for path in createdDirectories.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
}

/// A fresh directory under the system temporary directory, removed when the test process exits.
struct TemporaryDirectory {
    let url: URL

    static func make() throws -> TemporaryDirectory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("apns-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        createdDirectories.withLock { created in
            if created.isEmpty { atexit { removeCreatedDirectories() } }
            created.append(url.path)
        }
        return TemporaryDirectory(url: url)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
