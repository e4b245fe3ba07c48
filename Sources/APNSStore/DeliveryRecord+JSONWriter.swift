import APNSCore
import APNSJSON
import Foundation

/// Writes a record's JSON form (`DeliveryRecord.fields`) straight into bytes. The store encodes
/// every appended record, and Foundation's `JSONEncoder` (dictionary per object, then serialization) capped the
/// append rate at about a quarter of the 100k records/s goal; this writer is a single pass. A test checks that the
/// two forms decode to the same record.
extension DeliveryRecord {
    public var jsonBytes: [UInt8] { jsonBytes(providerTokenAsObjects: false) }

    /// With `providerTokenAsObjects`, the decoded JWT header and claims are JSON objects rather than JSON text in a
    /// string (what the admin API and the command line show); the store keeps the text form.
    public func jsonBytes(providerTokenAsObjects: Bool) -> [UInt8] {
        var writer = JSONWriter()
        writer.reserve(512 + payload.count * 2)
        write(to: &writer, providerTokenAsObjects: providerTokenAsObjects)
        return writer.bytes
    }

    /// Writes the record as one JSON object (a member value or an array element of what `writer` has open), field
    /// by field from `fields`.
    public func write(to writer: inout JSONWriter, providerTokenAsObjects: Bool = false) {
        writer.beginObject()
        for write in providerTokenAsObjects ? Self.presentedWriters : Self.writers { write(self, &writer) }
        writer.endObject()
    }
}
