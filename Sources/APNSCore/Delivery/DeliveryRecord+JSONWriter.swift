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
        var writer = JSONWriter(capacity: estimatedJSONByteCount)
        write(to: &writer, providerTokenAsObjects: providerTokenAsObjects)
        return writer.bytes
    }

    /// Room for the record's JSON: its fixed part and the variable texts, each with its key and quotes (escapes
    /// may take more; the writer grows then). `512 + payload.count * 2` grew the buffer twice for a Live Activity
    /// update, whose headers, provider token and outcome alone pass 1 KB.
    public var estimatedJSONByteCount: Int {
        var count = 640 + payload.count * 2 + clientAddress.utf8.count + path.utf8.count + apnsID.utf8.count
        for header in headers { count += 24 + header.name.utf8.count + header.value.utf8.count }
        for warning in warnings { count += 32 + warning.code.utf8.count + warning.message.utf8.count }
        if let providerToken {
            count += 64 + (providerToken.header?.utf8.count ?? 0) * 2 + (providerToken.claims?.utf8.count ?? 0) * 2
        }
        if let liveActivity { count += 48 + liveActivity.code.utf8.count + liveActivity.explanation.utf8.count }
        func optional(_ text: String?) -> Int { 24 + (text?.utf8.count ?? 0) }
        count += optional(explanation) + optional(deviceToken) + optional(topic) + optional(reason)
        count += optional(ruleID) + optional(apnsUniqueID) + optional(pushType)
        if clientCertificate != nil || injected != nil { count += 512 }
        return count
    }

    /// Writes the record as one JSON object (a member value or an array element of what `writer` has open), field
    /// by field from `fields`.
    public func write(to writer: inout JSONWriter, providerTokenAsObjects: Bool = false) {
        writer.beginObject()
        for field in providerTokenAsObjects ? Self.presentedWriters : Self.writers { field.write(self, &writer) }
        writer.endObject()
    }
}

extension DeliveryRecord {
    /// Whether every byte is ASCII (eight at a time): such a payload is its own UTF-8 text.
    public static func isASCII(_ bytes: Span<UInt8>) -> Bool {
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= bytes.count {
            high |= CanonicalUUID.word(bytes, at: index, count: 8)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
