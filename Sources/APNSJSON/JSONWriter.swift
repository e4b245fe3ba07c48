/// The one JSON byte writer: objects, arrays, strings (escaped per RFC 8259 §7: `"`, `\`, `\n`, `\r`, `\t`, other
/// control characters as `\u00xx`; `/` and non-ASCII as they are), integers, booleans, number literals and whole
/// `JSONValue`s. Single pass, no intermediate objects: the delivery record is written with it on every push, so
/// the small methods are `@inlinable` (callers in other modules get them inlined, as if the writer were local).
public struct JSONWriter {
    /// The JSON written so far.
    @inlinable public var bytes: [UInt8] { output.array }
    @usableFromInline let output = JSONOutputBytes()
    /// Whether the next member/element needs a leading comma, per open container.
    @usableFromInline var needsComma: [Bool] = []

    @inlinable public init() {}

    /// How many bytes were written so far.
    @inlinable public var byteCount: Int { output.count }

    /// Appends the JSON written so far to `bytes` (without the intermediate array `bytes` makes).
    @inlinable public func append(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: output.buffer.pointee.base, count: output.count))
    }

    @inlinable public mutating func reserve(_ capacity: Int) { output.reserve(capacity - output.count) }

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

    /// Decimal digits written in place (`String(value)` allocated for the 19-digit nanosecond times).
    @inlinable public mutating func integer(_ value: Int64) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var first = 20
            repeat {
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(UnsafeBufferPointer(rebasing: digits[first...]))
        }
    }
    @inlinable public mutating func boolean(_ value: Bool) {
        output.append(value ? "true" : "false")
    }
    @inlinable public mutating func null() { output.append("null") }

    /// Writes a whole value compactly: no whitespace, members in their order, numbers as their literal text.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): boolean(flag)
        case .number(let text): output.append(text)
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

    /// Writes `value` as a JSON string. Scans the UTF-8 bytes in place (no iterator over `String.UTF8View`, which
    /// cost more than the rest of a record's encoding) and copies the runs between escapes in bulk.
    @inlinable public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { escaped($0) }
    }

    @inlinable mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        if let base = utf8.baseAddress {
            let count = utf8.count
            var index = 0
            while index < count {
                // Eight bytes at a time while none needs escaping (most of a record: tokens, ids, header values).
                while index + 8 <= count,
                    !Self.mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                {
                    index += 8
                }
                let end = min(index + 8, count)
                while index < end {
                    let byte = base[index]
                    if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                        if runStart < index {
                            output.append(UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                        }
                        escape(byte)
                        runStart = index + 1
                    }
                    index += 1
                }
            }
            if runStart < count { output.append(UnsafeBufferPointer(start: base + runStart, count: count - runStart)) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes of `word` is below 0x20, a quote or a backslash (exact for "any": the
    /// classic has-zero / has-less-than tests, Hacker's Delight 6-1).
    @inlinable static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highBits
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let quote = (quotes &- ones) & ~quotes & highBits
        let backslash = (backslashes &- ones) & ~backslashes & highBits
        return (control | quote | backslash) != 0
    }

    @usableFromInline mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): output.append(UInt8(ascii: "\\")); output.append(byte)
        case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\")); output.append(byte)
        case 0x0A: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "t"))
        default:
            output.append("\\u00")
            output.append(Self.hex[Int(byte >> 4)])
            output.append(Self.hex[Int(byte & 0x0F)])
        }
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
    /// `compactBytes.count`, counted without writing (the Live Activity size check measures every push's
    /// `content-state`).
    public var compactByteCount: Int {
        switch self {
        case .null: 4
        case .bool(let flag): flag ? 4 : 5
        case .number(let text): text.utf8.count
        case .string(let text): Self.escapedByteCount(text)
        case .array(let elements): elements.reduce(1 + max(elements.count, 1)) { $0 + $1.compactByteCount }
        case .object(let members):
            members.reduce(1 + max(members.count, 1)) { $0 + Self.escapedByteCount($1.key) + 1 + $1.value.compactByteCount }
        }
    }

    /// Bytes `JSONWriter.string` writes for `text`: quotes, and the escapes of `JSONWriter.escape`.
    static func escapedByteCount(_ text: String) -> Int {
        var count = 2
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09: count += 2
            case ..<0x20: count += 6
            default: count += 1
            }
        }
        return count
    }

    /// A number value from an integer.
    public static func integer(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    /// A string value, or `null` for nil.
    public static func nullable(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// The same value with every object's members sorted by key (for output that reads the same every time).
    public var sortingKeys: JSONValue {
        switch self {
        case .object(let members):
            .object(members.map { JSONMember($0.key, $0.value.sortingKeys) }.sorted { $0.key < $1.key })
        case .array(let items): .array(items.map(\.sortingKeys))
        default: self
        }
    }

    /// Compact JSON text with every object's keys sorted.
    public var sortedCompactText: String { sortingKeys.compactText }
}

/// The writer's growing bytes: appends are a bounds check and a copy, without `Array`'s copy-on-write check and
/// generic `append(contentsOf:)` on each of the few hundred appends a delivery record takes. Owned by one
/// `JSONWriter` (a copy of a writer shares it). The count, capacity and address live behind a pointer the class
/// never reassigns (`let`): a class's `var` would be checked for exclusive access at run time on every append.
@usableFromInline final class JSONOutputBytes {
    @usableFromInline struct Buffer {
        @usableFromInline var base: UnsafeMutablePointer<UInt8>
        @usableFromInline var count: Int
        @usableFromInline var capacity: Int

        @inlinable init(base: UnsafeMutablePointer<UInt8>, count: Int, capacity: Int) {
            self.base = base
            self.count = count
            self.capacity = capacity
        }
    }

    @usableFromInline let buffer: UnsafeMutablePointer<Buffer>

    @inlinable init() {
        buffer = .allocate(capacity: 1)
        buffer.initialize(to: Buffer(base: .allocate(capacity: 256), count: 0, capacity: 256))
    }

    deinit {
        buffer.pointee.base.deallocate()
        buffer.deinitialize(count: 1)
        buffer.deallocate()
    }

    @inlinable var count: Int { buffer.pointee.count }

    @inlinable var array: [UInt8] { Array(UnsafeBufferPointer(start: buffer.pointee.base, count: buffer.pointee.count)) }

    /// Room for `extra` more bytes.
    @inlinable func reserve(_ extra: Int) {
        if buffer.pointee.count + extra > buffer.pointee.capacity { grow(to: buffer.pointee.count + extra) }
    }

    @usableFromInline func grow(to needed: Int) {
        var newCapacity = buffer.pointee.capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: buffer.pointee.base, count: buffer.pointee.count)
        buffer.pointee.base.deallocate()
        buffer.pointee.base = newBase
        buffer.pointee.capacity = newCapacity
    }

    @inlinable func append(_ byte: UInt8) {
        reserve(1)
        buffer.pointee.base[buffer.pointee.count] = byte
        buffer.pointee.count += 1
    }

    @inlinable func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (buffer.pointee.base + buffer.pointee.count).initialize(from: source, count: bytes.count)
        buffer.pointee.count += bytes.count
    }

    @inlinable func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }
}
