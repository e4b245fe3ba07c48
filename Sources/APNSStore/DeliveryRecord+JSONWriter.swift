import APNSCore
import Foundation

/// Writes a record's JSON form (the same keys and values as `encode(to:)`) straight into bytes. The store encodes
/// every appended record, and Foundation's `JSONEncoder` (dictionary per object, then serialization) capped the
/// append rate at about a quarter of the 100k records/s goal; this writer is a single pass. A test checks that the
/// two forms decode to the same record.
extension DeliveryRecord {
    public var jsonBytes: [UInt8] {
        var writer = JSONByteWriter()
        writer.reserve(512 + payload.count * 2)
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
        if status == 0 { writer.nullField("status") } else { writer.field("status", Int64(status)) }
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
        if let injected {
            writer.key("injected")
            writer.beginObject()
            writer.key("fault")
            writer.raw(injected.faultJSON)
            writer.field("index", Int64(injected.index))
            writer.field("effect", injected.effect)
            writer.field("rulesAnswer", injected.rulesAnswer)
            writer.endObject()
        }
        writer.endObject()
        return writer.bytes
    }
}

/// A minimal JSON byte writer: objects, arrays, strings (escaped per RFC 8259 §7), integers and booleans.
struct JSONByteWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the next member/element needs a leading comma, per open container.
    private var needsComma: [Bool] = []

    mutating func reserve(_ capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func beginObject() { bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma.removeLast() }
    mutating func beginArray() { bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma.removeLast() }

    /// Starts an array element.
    mutating func element() { separate() }

    mutating func key(_ name: String) {
        separate()
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    mutating func field(_ name: String, _ value: Int64) { key(name); bytes.append(contentsOf: String(value).utf8) }
    mutating func nullField(_ name: String) { key(name); bytes.append(contentsOf: "null".utf8) }
    /// Already-serialized JSON (the caller guarantees it is valid).
    mutating func raw(_ json: String) { bytes.append(contentsOf: json.utf8) }
    mutating func field(_ name: String, _ value: Bool) { key(name); bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private static let hex = Array("0123456789abcdef".utf8)

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = value.utf8
        if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
