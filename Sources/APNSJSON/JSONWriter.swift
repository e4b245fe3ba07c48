/// The one JSON byte writer: objects, arrays, strings (escaped per RFC 8259 §7: `"`, `\`, `\n`, `\r`, `\t`, other
/// control characters as `\u00xx`; `/` and non-ASCII as they are), integers, booleans, number literals and whole
/// `JSONValue`s. Single pass, no intermediate objects: the delivery record is written with it on every push, so
/// the small methods are `@inlinable` (callers in other modules get them inlined, as if the writer were local).
public struct JSONWriter {
    /// The JSON written so far.
    @inlinable public var bytes: [UInt8] { output }
    @usableFromInline var output: [UInt8] = []
    /// Whether the next member/element needs a leading comma, per open container.
    @usableFromInline var needsComma: [Bool] = []

    @inlinable public init() {}

    @inlinable public mutating func reserve(_ capacity: Int) { output.reserveCapacity(capacity) }

    @inlinable public mutating func beginObject() { output.append(UInt8(ascii: "{")); needsComma.append(false) }
    @inlinable public mutating func endObject() { output.append(UInt8(ascii: "}")); needsComma.removeLast() }
    @inlinable public mutating func beginArray() { output.append(UInt8(ascii: "[")); needsComma.append(false) }
    @inlinable public mutating func endArray() { output.append(UInt8(ascii: "]")); needsComma.removeLast() }

    /// Starts an array element.
    @inlinable public mutating func element() { separate() }

    /// Writes `"name":` inside an object.
    @inlinable public mutating func key(_ name: String) {
        separate()
        string(name)
        output.append(UInt8(ascii: ":"))
    }

    @inlinable public mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    @inlinable public mutating func field(_ name: String, _ value: Int64) { key(name); integer(value) }
    @inlinable public mutating func field(_ name: String, _ value: Bool) { key(name); boolean(value) }
    @inlinable public mutating func field(_ name: String, _ value: JSONValue) { key(name); self.value(value) }

    @inlinable public mutating func integer(_ value: Int64) { output.append(contentsOf: String(value).utf8) }
    @inlinable public mutating func boolean(_ value: Bool) {
        output.append(contentsOf: (value ? "true" : "false").utf8)
    }
    @inlinable public mutating func null() { output.append(contentsOf: "null".utf8) }

    /// Writes a whole value compactly: no whitespace, members in their order, numbers as their literal text.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): boolean(flag)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): string(text)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                self.value(element)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                string(member.key)
                output.append(UInt8(ascii: ":"))
                self.value(member.value)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    @inlinable mutating func separate() {
        guard let last = needsComma.indices.last else { return }
        if needsComma[last] { output.append(UInt8(ascii: ",")) }
        needsComma[last] = true
    }

    @usableFromInline static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    @inlinable public mutating func string(_ value: String) {
        output.append(UInt8(ascii: "\""))
        let utf8 = value.utf8
        if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output.append(contentsOf: utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(UInt8(ascii: "\\")); output.append(byte)
            case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\")); output.append(byte)
            case 0x0A: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "t"))
            case 0..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(Self.hex[Int(byte >> 4)])
                output.append(Self.hex[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
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
