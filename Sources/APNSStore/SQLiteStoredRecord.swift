import APNSCore

/// The `record` blob of a row, in either of its two forms: a version-5 store writes the self-contained packed form
/// (`packedTag`, then `PackedDeliveryRecord`'s layout, no pools), files written before keep the record's JSON
/// (`DeliveryRecord.jsonBytes` with id 0: it starts with `{`). Readers tell the two apart by the first byte and read
/// both, so a file may hold rows of each (an older file the store has written to since).
///
/// A Live Activity update packs to ~1 KB against ~2.4 KB of JSON, and packing costs less than half of what writing
/// the JSON did; both forms read back to the same `DeliveryRecord` (the JSON leaves out `tls.clientCertificate`, and
/// the packed form does too).
enum SQLiteStoredRecord {
    /// The first byte of a packed record: layout 1 of `PackedDeliveryRecord` (self-contained). A new layout takes
    /// a new tag; never `{` (0x7B), which starts a JSON row.
    static let packedTag: UInt8 = 0x01

    /// The record a row holds: `stored` is its `record` blob, `id` and `receivedAt` its `id` and `received_at`
    /// columns (a packed record leaves both to the columns; a JSON one carries its receive time itself).
    static func record(_ stored: [UInt8], id: Int64, receivedAt: Int64) throws(DeliveryStoreError) -> DeliveryRecord {
        if stored.first == packedTag {
            let record = stored.withUnsafeBufferPointer { bytes in
                PackedDeliveryRecord.unpack(
                    UnsafeBufferPointer(rebasing: bytes.dropFirst()), id: id,
                    receivedAt: Timestamp(nanosecondsSinceEpoch: receivedAt), pools: nil)
            }
            guard let record else { throw .corruptRecord(id: id, detail: "not a packed record") }
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
    /// (`DeliveryRecord.storedJSON(_:mayMatchSearch:)`); a packed one is always decoded (its ids and tokens are
    /// binary, and decoding it costs less than parsing JSON).
    static func mayMatchSearch(_ stored: [UInt8], _ lowercasedQuery: String) -> Bool {
        stored.first == packedTag || DeliveryRecord.storedJSON(stored, mayMatchSearch: lowercasedQuery)
    }

    /// The SQL condition of `device` on the `record` column: JSON rows are selected in SQL by their outcome code,
    /// packed rows all pass (`CASE` never hands them to `json_extract`, which fails on anything but JSON) and the
    /// reader then decides on the decoded record.
    static func deviceCondition(_ device: DeviceHandling) -> String {
        "CASE WHEN substr(record, 1, 1) = X'7B' THEN "
            + device.sqlCondition("json_extract(CAST(record AS TEXT), '$.liveActivity.code')") + " ELSE 1 END"
    }
}

/// Packs records as the SQLite store's rows hold them (`SQLiteStoredRecord`), reusing one scratch buffer like the
/// store's per-thread packers: the encoding each durable push pays on its thread (Benchmarks/StoreThroughput).
package struct StoredRecordEncoder: Sendable {
    private var packer = DeliveryPacker.selfContained()

    package init() {}

    /// Packs `record`; returns the byte count of the `record` blob it makes (tag included).
    package mutating func storedByteCount(_ record: DeliveryRecord) -> Int {
        _ = packer.packInScratch(record)
        return packer.withPackedBytes { 1 + $0.count }
    }
}
