import APNSCore
import Foundation

/// Read-only access to a store file another process (a running or stopped server) writes: what
/// `apns-mock deliveries --data-dir` and `apns-mock explain --data-dir` use. Never writes, never applies retention.
public final class SQLiteDeliveryArchive {
    private let reader: SQLiteDeliveryReader

    /// Opens `directory/deliveries.sqlite` read-only.
    public init(directory: String) throws(DeliveryStoreError) {
        let path = (directory as NSString).appendingPathComponent(SQLiteDeliveryStore.fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw .sqlite(code: 14, message: "no delivery store at \(path)")
        }
        reader = SQLiteDeliveryReader(connection: try SQLiteConnection(path: path, mode: .readOnly))
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

    public func latestID() throws(DeliveryStoreError) -> Int64 {
        try reader.maxID()
    }
}
