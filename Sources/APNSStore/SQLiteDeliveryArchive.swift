import APNSCore
import Foundation

/// Read-only access to a store file another process (a running or stopped server) writes: what
/// `apns-mock deliveries --data-dir` and `apns-mock explain --data-dir` use. Never writes, never applies retention.
/// A row whose record cannot be decoded is left out of lists (`deliveryPage` names it); a file SQLite finds
/// malformed throws `.damaged` naming it.
public final class SQLiteDeliveryArchive: DeliveryReader {
    private let reader: SQLiteDeliveryReader
    private let path: String

    /// Opens `directory/deliveries.sqlite` read-only.
    public init(directory: String) throws(DeliveryStoreError) {
        let path = (directory as NSString).appendingPathComponent(SQLiteDeliveryStore.fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw .sqlite(code: 14, message: "no delivery store at \(path)")
        }
        self.path = path
        reader = try Self.naming(path) { () throws(DeliveryStoreError) in
            let connection = try SQLiteConnection(path: path, mode: .readOnly)
            // A file of another schema version is not read: its rows would be misread (the store moves it aside).
            if let version = try SQLiteSchema.fileVersion(connection), version != SQLiteSchema.version {
                throw .sqlite(
                    code: 26,
                    message: "\(path) has schema version \(version), not \(SQLiteSchema.version): this release does "
                        + "not read it (a server of this release moves it aside when it opens the directory)")
            }
            return SQLiteDeliveryReader(connection: connection)
        }
    }

    public func deliveries(_ query: DeliveryQuery) throws(DeliveryStoreError) -> [DeliveryRecord] {
        try deliveryPage(query).records
    }

    public func deliveryPage(_ query: DeliveryQuery) throws(DeliveryStoreError) -> DeliveryPage {
        try Self.naming(path) { () throws(DeliveryStoreError) in try reader.deliveryPage(query) }
    }

    public func delivery(id: Int64) throws(DeliveryStoreError) -> DeliveryRecord? {
        try Self.naming(path) { () throws(DeliveryStoreError) in try reader.delivery(id: id) }
    }

    public func delivery(apnsID: String) throws(DeliveryStoreError) -> DeliveryRecord? {
        try Self.naming(path) { () throws(DeliveryStoreError) in try reader.delivery(apnsID: apnsID) }
    }

    public func newestID() throws(DeliveryStoreError) -> Int64 {
        try Self.naming(path) { () throws(DeliveryStoreError) in try reader.maxID() }
    }

    /// Runs `body`; SQLite's "malformed" errors become `.damaged` naming the file.
    private static func naming<T>(
        _ path: String, _ body: () throws(DeliveryStoreError) -> T
    ) throws(DeliveryStoreError) -> T {
        do throws(DeliveryStoreError) {
            return try body()
        } catch {
            if case .damaged = error { throw error }
            guard error.isDamage else { throw error }
            throw .damaged(path: path, detail: "\(error)")
        }
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
            if let record = try deliveries(query).first { return record }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return nil }
            Thread.sleep(forTimeInterval: min(remaining, Self.pollInterval).inSeconds)
        }
    }

    static let pollInterval: Duration = .milliseconds(500)
}
