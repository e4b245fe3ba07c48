import APNSCore
import APNSJSON
import Foundation

/// Writes a record's JSON form (the same keys and values as `encode(to:)`) straight into bytes. The store encodes
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

    /// Writes the record as one JSON object (a member value or an array element of what `writer` has open).
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("id", id)
        writer.field("receivedAt", Self.iso8601(receivedAt))
        writer.field("receivedAtNanos", receivedAt.nanosecondsSinceEpoch)
        writer.field("connectionId", Int64(bitPattern: connectionID))
        writer.field("clientAddress", clientAddress)
        if let environment { writer.field("environment", environment.rawValue) }
        if let tls {
            writer.key("tls")
            writer.beginObject()
            if let alpn = tls.alpn { writer.field("alpn", alpn) }
            writer.field("version", tls.version)
            writer.field("cipher", tls.cipher)
            if let serverName = tls.serverName { writer.field("serverName", serverName) }
            writer.endObject()
        }
        writer.field("method", method)
        writer.field("path", path)
        if let deviceToken { writer.field("deviceToken", deviceToken) }
        writer.key("headers")
        writer.beginArray()
        for header in headers {
            writer.element()
            writer.beginObject()
            writer.field("name", header.name)
            writer.field("value", header.value)
            writer.endObject()
        }
        writer.endArray()
        if let providerToken {
            writer.key("providerToken")
            writer.beginObject()
            if let header = providerToken.header { writer.field("header", header) }
            if let claims = providerToken.claims { writer.field("claims", claims) }
            writer.field("fingerprint", providerToken.fingerprint)
            writer.endObject()
        }
        if let text = payloadText {
            writer.field("payload", text)
        } else {
            writer.field("payloadBase64", Data(payload).base64EncodedString())
        }
        writer.field("status", Int64(status))
        if let reason { writer.field("reason", reason) }
        writer.field("accepted", accepted)
        writer.field("apnsId", apnsID)
        if let apnsUniqueID { writer.field("apnsUniqueId", apnsUniqueID) }
        writer.key("warnings")
        writer.beginArray()
        for warning in warnings {
            writer.element()
            writer.beginObject()
            writer.field("code", warning.code)
            writer.field("message", warning.message)
            writer.endObject()
        }
        writer.endArray()
        if let explanation { writer.field("explanation", explanation) }
        if let ruleID { writer.field("ruleId", ruleID) }
        writer.field("strict", strict)
        if let pushType { writer.field("pushType", pushType) }
        if let topic { writer.field("topic", topic) }
        if let liveActivity {
            writer.key("liveActivity")
            writer.beginObject()
            writer.field("code", liveActivity.code)
            writer.field("explanation", liveActivity.explanation)
            writer.endObject()
        }
        writer.field("latencyMicroseconds", latencyMicroseconds)
        writer.endObject()
    }
}
