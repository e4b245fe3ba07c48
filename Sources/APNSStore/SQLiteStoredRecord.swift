import APNSCore

/// The `record` blob of a row, in either of its two forms: `DeliveryCodec.formatTag` then the codec's bytes, or in
/// files written before schema version 5 the record's JSON (`DeliveryRecord.jsonBytes` with id 0: it starts with
/// `{`). Readers tell the two apart by the first byte and read both.
enum SQLiteStoredRecord {
    /// The record a row holds: `stored` is its `record` blob, `id` and `receivedAt` its `id` and `received_at`
    /// columns (a packed record leaves both to the columns; a JSON one carries its receive time itself).
    static func record(_ stored: [UInt8], id: Int64, receivedAt: Int64) throws(DeliveryStoreError) -> DeliveryRecord {
        if stored.first == DeliveryCodec.formatTag {
            guard let record = DeliveryCodec.decode(
                stored.dropFirst(), id: id, receivedAt: Timestamp(nanosecondsSinceEpoch: receivedAt))
            else { throw .corruptRecord(id: id, detail: "not a packed record") }
            return record
        }
        do {
            return try DeliveryRecord(jsonBytes: stored).withID(id)
        } catch {
            throw .corruptRecord(id: id, detail: "\(error)")
        }
    }

    /// False only when the row whose blob is `stored` certainly does not match the free-text `lowercasedQuery`;
    /// true means "decode it and look". A JSON row is ruled out from its bytes
    /// (`DeliveryRecord.storedJSON(_:mayMatchSearch:)`); a packed one is always decoded.
    static func mayMatchSearch(_ stored: [UInt8], _ lowercasedQuery: String) -> Bool {
        stored.first == DeliveryCodec.formatTag || DeliveryRecord.storedJSON(stored, mayMatchSearch: lowercasedQuery)
    }

    /// The SQL condition of `device` on the `record` column: JSON rows are selected in SQL by their outcome code,
    /// packed rows all pass (`CASE` never hands them to `json_extract`, which fails on anything but JSON) and the
    /// reader then decides on the decoded record.
    static func deviceCondition(_ device: DeviceHandling) -> String {
        "CASE WHEN substr(record, 1, 1) = X'7B' THEN "
            + device.sqlCondition("json_extract(CAST(record AS TEXT), '$.liveActivity.code')") + " ELSE 1 END"
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

extension DeviceHandling {
    /// The SQL condition on the outcome code expression `column` that selects this class.
    func sqlCondition(_ column: String) -> String {
        switch self {
        case .applied: "\(column) IN ('applied', 'dismissed')"
        case .ignored: "\(column) LIKE 'ignored%'"
        case .dropped: "\(column) LIKE 'dropped%'"
        case .throttled: "\(column) = 'throttled'"
        }
    }
}
