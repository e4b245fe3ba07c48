import APNSCore

/// The `record` blob of a row: `DeliveryCodec.formatTag`, then the codec's bytes.
enum SQLiteStoredRecord {
    /// The record a row holds: `stored` is its `record` blob, `id` and `receivedAt` its `id` and `received_at`
    /// columns.
    static func record(_ stored: [UInt8], id: Int64, receivedAt: Int64) throws(DeliveryStoreError) -> DeliveryRecord {
        guard stored.first == DeliveryCodec.formatTag, let record = DeliveryCodec.decode(
            stored.dropFirst(), id: id, receivedAt: Timestamp(nanosecondsSinceEpoch: receivedAt))
        else { throw .corruptRecord(id: id, detail: "not a packed record") }
        return record
    }
}

/// Encodes records as the SQLite store's rows hold them: the encoding each durable push pays on its thread
/// (Benchmarks/StoreThroughput).
public struct StoredRecordEncoder: Sendable {
    public init() {}

    /// Encodes `record`; returns the byte count of the `record` blob it makes (tag included).
    public mutating func storedByteCount(_ record: DeliveryRecord) -> Int {
        var bytes: [UInt8] = [DeliveryCodec.formatTag]
        DeliveryCodec.encode(record, into: &bytes)
        return bytes.count
    }
}
