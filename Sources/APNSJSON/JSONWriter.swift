/// The one JSON byte writer: objects, arrays, strings (escaped per RFC 8259 §7: `"`, `\`, `\n`, `\r`, `\t`, other
/// control characters as `\u00xx`; `/` and non-ASCII as they are), integers, booleans, number literals and whole
/// `JSONValue`s. Single pass, no intermediate objects: the delivery record is written with it on every push.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next member/element needs a leading comma, per open container.
    private var needsComma: [Bool] = []

    public init() {}

    public mutating func reserve(_ capacity: Int) { bytes.reserveCapacity(capacity) }

    public mutating func beginObject() { bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma.removeLast() }
    public mutating func beginArray() { bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma.removeLast() }

    /// Starts an array element.
    public mutating func element() { separate() }

    /// Writes `"name":` inside an object.
    public mutating func key(_ name: String) {
        separate()
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    public mutating func field(_ name: String, _ value: Int64) { key(name); integer(value) }
    public mutating func field(_ name: String, _ value: Bool) { key(name); boolean(value) }
    public mutating func field(_ name: String, _ value: JSONValue) { key(name); self.value(value) }

    public mutating func integer(_ value: Int64) { bytes.append(contentsOf: String(value).utf8) }
    public mutating func boolean(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }
    public mutating func null() { bytes.append(contentsOf: "null".utf8) }

    /// Writes a whole value compactly: no whitespace, members in their order, numbers as their literal text.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): boolean(flag)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let text): string(text)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                string(member.key)
                bytes.append(UInt8(ascii: ":"))
                self.value(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func separate() {
        guard let last = needsComma.indices.last else { return }
        if needsComma[last] { bytes.append(UInt8(ascii: ",")) }
        needsComma[last] = true
    }

    private static let hex = Array("0123456789abcdef".utf8)

    public mutating func string(_ value: String) {
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

extension JSONValue {
    /// Compact JSON bytes (no whitespace, keys in their original order, numbers as sent).
    public var compactBytes: [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        return writer.bytes
    }

    /// Compact JSON text. Used to measure `attributes` + `content-state` against ActivityKit's 4 KB limit and to
    /// show values in messages and timelines.
    public var compactText: String { String(decoding: compactBytes, as: UTF8.self) }

    /// Size in bytes of `compactText` encoded as UTF-8.
    public var compactByteCount: Int { compactBytes.count }
}
