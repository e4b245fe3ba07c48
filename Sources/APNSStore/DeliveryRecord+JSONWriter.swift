import APNSCore
import APNSJSON
import Foundation

/// Writes a record's JSON form (`DeliveryRecord.fields`) straight into bytes. The store encodes
/// every appended record, and Foundation's `JSONEncoder` (dictionary per object, then serialization) capped the
/// append rate at about a quarter of the 100k records/s goal; this writer is a single pass. A test checks that the
/// two forms decode to the same record.
extension DeliveryRecord {
    public var jsonBytes: [UInt8] {
        var writer = JSONWriter()
        writer.reserve(512 + payload.count * 2)
        write(to: &writer)
        return writer.bytes
    }

    /// Writes the record as one JSON object (a member value or an array element of what `writer` has open), field
    /// by field from `fields`.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        for write in Self.writers { write(self, &writer) }
        writer.endObject()
    }
}
