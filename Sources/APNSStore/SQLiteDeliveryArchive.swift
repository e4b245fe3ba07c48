import APNSCore
import Foundation

/// Read-only access to a store file another process (a running or stopped server) writes: what
/// `apns-mock deliveries --data-dir` and `apns-mock explain --data-dir` use. Never writes, never applies retention.
public final class SQLiteDeliveryArchive: DeliveryReader {
    private let reader: SQLiteDeliveryReader

    /// Opens `directory/deliveries.sqlite` read-only.
    public init(directory: String) throws(DeliveryStoreError) {
        let path = (directory as NSString).appendingPathComponent(SQLiteDeliveryStore.fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw .sqlite(code: 14, message: "no delivery store at \(path)")
        }
        reader = try SQLiteDeliveryReader(connection: try SQLiteConnection(path: path, mode: .readOnly))
    }

    public func deliveries(_ query: DeliveryQuery) throws(DeliveryStoreError) -> [DeliveryRecord] {
        try reader.deliveries(query)
    }

    public func delivery(id: Int64) throws(DeliveryStoreError) -> DeliveryRecord? {
        try reader.delivery(id: id)
    }

    public func delivery(apnsID: String) throws(DeliveryStoreError) -> DeliveryRecord? {
        try reader.delivery(apnsID: apnsID)
    }

    public func newestID() throws(DeliveryStoreError) -> Int64 {
        try reader.maxID()
    }

    /// No notification crosses processes, so this polls the file twice a second until a record matches or
    /// `timeout` (clamped to `maxWait`) has passed.
    public func waitForNext(_ filter: DeliveryFilter, after afterID: Int64, timeout: Duration)
        throws(DeliveryStoreError) -> DeliveryRecord?
    {
        let clock = ContinuousClock()
        let deadline = clock.now + min(max(timeout, .zero), maxWait)
        while true {
            let query = DeliveryQuery(filter: filter, afterID: afterID, limit: 1, order: .oldestFirst)
            if let record = try reader.deliveries(query).first { return record }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return nil }
            Thread.sleep(forTimeInterval: min(remaining, Self.pollInterval).inSeconds)
        }
    }

    static let pollInterval: Duration = .milliseconds(500)
}
