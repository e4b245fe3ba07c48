/// The one JSON byte writer: objects, arrays, strings (escaped per RFC 8259 §7: `"`, `\`, `\n`, `\r`, `\t`, other
/// control characters as `\u00xx`; `/` and non-ASCII as they are), integers, booleans, number literals and whole
/// `JSONValue`s. Single pass, no intermediate objects: the delivery record is written with it on every push, so
/// the small methods are `@inlinable` (callers in other modules get them inlined, as if the writer were local).
public struct JSONWriter {
    /// The JSON written so far.
    @inlinable public var bytes: [UInt8] { output.array }
    @usableFromInline let output: JSONOutputBytes
    /// Whether the next member/element needs a leading comma, per open container: bit `d - 1` for the container at
    /// depth `d` (the first 64 levels, a record's few without an allocation), `deeperCommas` past them.
    @usableFromInline var commas: UInt64 = 0
    @usableFromInline var depth = 0
    @usableFromInline var deeperCommas: [Bool] = []

    @inlinable public init() { output = JSONOutputBytes(capacity: 256) }

    /// A writer whose first `capacity` bytes need no further allocation (the writer and its bytes are one).
    @inlinable public init(capacity: Int) { output = JSONOutputBytes(capacity: max(capacity, 16)) }

    /// How many bytes were written so far.
    @inlinable public var byteCount: Int { output.count }

    /// Appends the JSON written so far to `bytes` (without the intermediate array `bytes` makes).
    @inlinable public func append(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: output.buffer.pointee.base, count: output.count))
    }

    @inlinable public mutating func reserve(_ capacity: Int) { output.reserve(capacity - output.count) }

    @inlinable public mutating func beginObject() { output.append(UInt8(ascii: "{")); open() }
    @inlinable public mutating func endObject() { output.append(UInt8(ascii: "}")); close() }
    @inlinable public mutating func beginArray() { output.append(UInt8(ascii: "[")); open() }
    @inlinable public mutating func endArray() { output.append(UInt8(ascii: "]")); close() }

    @inlinable mutating func open() {
        depth += 1
        if depth <= 64 { commas &= ~(1 << UInt64(depth - 1)) } else { deeperCommas.append(false) }
    }

    @inlinable mutating func close() {
        precondition(depth > 0, "no container is open")
        if depth > 64 { deeperCommas.removeLast() }
        depth -= 1
    }

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
        guard depth > 0 else { return }
        if depth <= 64 {
            let bit: UInt64 = 1 << UInt64(depth - 1)
            if commas & bit != 0 { output.append(UInt8(ascii: ",")) }
            commas |= bit
        } else {
            if deeperCommas[depth - 65] { output.append(UInt8(ascii: ",")) }
            deeperCommas[depth - 65] = true
        }
    }

    /// Writes `value` as a JSON string. Scans the UTF-8 bytes in place (no iterator over `String.UTF8View`, which
    /// cost more than the rest of a record's encoding).
    @inlinable public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { escaped($0) }
    }

    /// Writes UTF-8 bytes (valid UTF-8, e.g. a request body already checked) as a JSON string, as `string` writes
    /// the same text, without making it a `String` first.
    @inlinable public mutating func string(utf8: UnsafeBufferPointer<UInt8>) { escaped(utf8) }

    /// Writes straight into the buffer: room for the quotes and every byte is reserved first, the escapes' extra
    /// bytes as they come, so clean words are stored eight bytes at a time and an escape is a few stores (a
    /// payload's JSON text escapes a quote every few bytes; a call per run and per escaped byte cost more than the
    /// rest of the record).
    @inlinable mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let count = utf8.count
        output.reserve(count + 2)
        let state = output.buffer
        var base = state.pointee.base
        var at = state.pointee.count
        // Bytes escapes may add before the buffer must grow: the room left after the text not yet written (the byte
        // being escaped included) and the closing quote. An escape adds at most five bytes to its byte's one.
        var spare = state.pointee.capacity - at - count - 2
        base[at] = UInt8(ascii: "\"")
        at += 1
        if let source = utf8.baseAddress {
            var index = 0
            while index < count {
                // Eight bytes at a time while none needs escaping (most of a record: tokens, ids, header values).
                while index + 8 <= count {
                    let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
                    if Self.mayNeedEscape(word) { break }
                    UnsafeMutableRawPointer(base + at).storeBytes(of: word, as: UInt64.self)
                    at += 8
                    index += 8
                }
                let end = min(index + 8, count)
                while index < end {
                    let byte = source[index]
                    index += 1
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                        base[at] = byte
                        at += 1
                        continue
                    }
                    if spare < 5 {
                        state.pointee.count = at
                        // The rest of the text, its closing quote, and room for more escapes.
                        output.reserve(count - index + 1 + 64 + count / 4)
                        base = state.pointee.base
                        // As everywhere in this loop, `spare` leaves out this byte's own slot (the `- 2`: the slot and
                        // the closing quote), so that `spare < 5` means fewer than six bytes for this escape.
                        spare = state.pointee.capacity - at - (count - index) - 2
                    }
                    assert(at + 6 <= state.pointee.capacity - (count - index) - 1, "an escape past the reserved room")
                    base[at] = UInt8(ascii: "\\")
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"): base[at + 1] = byte
                    case 0x0A: base[at + 1] = UInt8(ascii: "n")
                    case 0x0D: base[at + 1] = UInt8(ascii: "r")
                    case 0x09: base[at + 1] = UInt8(ascii: "t")
                    default:
                        base[at + 1] = UInt8(ascii: "u")
                        base[at + 2] = UInt8(ascii: "0")
                        base[at + 3] = UInt8(ascii: "0")
                        base[at + 4] = Self.hexDigit(byte >> 4)
                        base[at + 5] = Self.hexDigit(byte & 0x0F)
                        at += 4
                        spare -= 4
                    }
                    at += 2
                    spare -= 1
                }
            }
        }
        assert(at < state.pointee.capacity, "the closing quote past the buffer")
        base[at] = UInt8(ascii: "\"")
        state.pointee.count = at + 1
    }

    @inlinable static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
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

    @inlinable init(capacity: Int) {
        buffer = .allocate(capacity: 1)
        buffer.initialize(to: Buffer(base: .allocate(capacity: capacity), count: 0, capacity: capacity))
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
