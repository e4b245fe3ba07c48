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

    /// Appends bytes as they are, outside the JSON structure: for a buffer whose JSON is framed by other bytes (the
    /// SQLite store writes a row's other values and the record's JSON into one writer).
    @inlinable public mutating func appendRaw(_ bytes: UnsafeRawBufferPointer) { output.append(raw: bytes) }

    @inlinable public mutating func appendRaw(_ byte: UInt8) { output.append(byte) }

    /// The bytes written so far, in place (valid only inside `body`).
    @inlinable public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: output.buffer.pointee.base, count: output.count))
    }

    /// The bytes written so far, in place and writable (valid only inside `body`): for patching a framing value
    /// written before its content's length was known.
    @inlinable public mutating func withUnsafeMutableBytes<Result>(
        _ body: (UnsafeMutableRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        try body(UnsafeMutableRawBufferPointer(start: output.buffer.pointee.base, count: output.count))
    }

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
        let comma = separatorNeeded()
        Self.withUTF8(name) { escaped($0, comma: comma, colon: true) }
    }

    /// A member name escaped once, with its quotes and colon, for a name written again and again (a delivery
    /// record's keys): writing it is a copy, not a scan.
    public struct EncodedKey: Sendable {
        @usableFromInline let bytes: [UInt8]

        public init(_ name: String) {
            var writer = JSONWriter(capacity: name.utf8.count + 8)
            writer.key(name)
            bytes = writer.bytes
        }
    }

    /// Writes `"name":` inside an object from its encoded form.
    @inlinable public mutating func key(_ name: EncodedKey) {
        let comma = separatorNeeded()
        name.bytes.withUnsafeBufferPointer { encoded in
            output.reserve(encoded.count + 1)
            if comma { output.append(UInt8(ascii: ",")) }
            output.append(encoded)
        }
    }

    @inlinable public mutating func field(_ name: EncodedKey, _ value: String) { key(name); string(value) }
    @inlinable public mutating func field(_ name: EncodedKey, _ value: Int64) { key(name); integer(value) }

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
        if separatorNeeded() { output.append(UInt8(ascii: ",")) }
    }

    /// Whether the next member/element of the open container follows another (a comma before it); marks the
    /// container as no longer empty.
    @inlinable mutating func separatorNeeded() -> Bool {
        guard depth > 0 else { return false }
        if depth <= 64 {
            let bit: UInt64 = 1 &<< UInt64(depth &- 1)
            defer { commas |= bit }
            return commas & bit != 0
        }
        defer { deeperCommas[depth - 65] = true }
        return deeperCommas[depth - 65]
    }

    /// Writes `value` as a JSON string. Scans the UTF-8 bytes in place (no iterator over `String.UTF8View`, which
    /// cost more than the rest of a record's encoding).
    @inlinable public mutating func string(_ value: String) {
        Self.withUTF8(value) { escaped($0) }
    }

    /// `text`'s UTF-8 bytes in place: without the copy of the string `String.withUTF8` needs (a retain and a
    /// release per string) unless the text is not stored as contiguous UTF-8.
    @inlinable static func withUTF8(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if text.utf8.withContiguousStorageIfAvailable(body) == nil {
            var text = text
            text.withUTF8(body)
        }
    }

    /// Writes UTF-8 bytes (valid UTF-8, e.g. a request body already checked) as a JSON string, as `string` writes
    /// the same text, without making it a `String` first.
    @inlinable public mutating func string(utf8: UnsafeBufferPointer<UInt8>) { escaped(utf8) }

    /// Writes straight into the buffer: room for the quotes and every byte is reserved first, the escapes' extra
    /// bytes as they come, so clean words are stored eight bytes at a time and an escape is a few stores (a
    /// payload's JSON text escapes a quote every few bytes; a call per run and per escaped byte cost more than the
    /// rest of the record). With `comma` a `,` comes first, with `colon` a `:` after (a member's key: one call and
    /// one room check for the three).
    @inlinable mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>, comma: Bool = false, colon: Bool = false) {
        let count = utf8.count
        // The text, the quotes, the comma and colon, and eight bytes so that the last word may be stored whole.
        output.reserve(count + 12)
        let state = output.buffer
        var base = state.pointee.base
        var at = state.pointee.count
        if comma {
            base[at] = UInt8(ascii: ",")
            at += 1
        }
        base[at] = UInt8(ascii: "\"")
        at += 1
        // Bytes escapes may add before the buffer must grow: the room left after the text not yet written and the
        // closing quote and colon (at least eight at first). An escape adds at most five bytes to its byte's one.
        // Each step below keeps `capacity - at == spare + (count - index) + 2` before the byte it escapes is
        // counted as written.
        var spare = state.pointee.capacity - at - count - 2
        if let source = utf8.baseAddress {
            var index = 0
            while index < count {
                let byte: UInt8
                let left = count - index
                if left >= 8 || spare + left >= 8 {
                    // Eight bytes at a time (fewer at the end, padded with plain bytes): stored whole, as there is
                    // room for eight, and kept up to the first byte that needs escaping (the lowest flagged byte of
                    // `escapeMask` is exact), so a quote costs its escape, not a byte-by-byte pass over its word.
                    let word = left >= 8
                        ? UInt64(littleEndian: UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self))
                        : Self.tailWord(source + index, count: left)
                    UnsafeMutableRawPointer(base + at).storeBytes(of: word.littleEndian, as: UInt64.self)
                    let mask = Self.escapeMask(word)
                    if mask == 0 {
                        let stored = min(left, 8)
                        at += stored
                        index += stored
                        continue
                    }
                    let clean = mask.trailingZeroBitCount &>> 3
                    at += clean
                    index += clean
                    byte = source[index]
                } else {
                    byte = source[index]
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                        base[at] = byte
                        at += 1
                        index += 1
                        continue
                    }
                }
                index += 1
                if spare < 5 {
                    state.pointee.count = at
                    // The rest of the text, its closing quote and colon, and room for more escapes.
                    output.reserve(count - index + 2 + 64 + count / 4)
                    base = state.pointee.base
                    // `spare` leaves out this byte's own slot and the closing quote and colon (the `- 3`), so that
                    // `spare < 5` means fewer than six bytes for this escape.
                    spare = state.pointee.capacity - at - (count - index) - 3
                }
                assert(at + 6 <= state.pointee.capacity - (count - index) - 2, "an escape past the reserved room")
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
        assert(at + 2 <= state.pointee.capacity, "the closing quote past the buffer")
        base[at] = UInt8(ascii: "\"")
        at += 1
        if colon {
            base[at] = UInt8(ascii: ":")
            at += 1
        }
        state.pointee.count = at
    }

    /// The `count` (1–7) bytes at `source` as the low bytes of a word, the rest plain bytes (`A`): read without
    /// touching a byte past them.
    @inlinable static func tailWord(_ source: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        let padding: UInt64 = 0x4141_4141_4141_4141 &<< UInt64(count &* 8)
        if count >= 4 {
            let raw = UnsafeRawPointer(source)
            let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            return low | high &<< UInt64((count &- 4) &* 8) | padding
        }
        let middle = count &>> 1
        return UInt64(source[0]) | UInt64(source[middle]) &<< UInt64(middle &* 8)
            | UInt64(source[count - 1]) &<< UInt64((count &- 1) &* 8) | padding
    }

    @inlinable static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// The high bit of each byte of `word` (the first byte in memory the lowest) that is below 0x20, a quote or a
    /// backslash: nonzero exactly when one is (the classic has-zero / has-less-than tests, Hacker's Delight 6-1). The
    /// lowest flagged byte is exact; bytes above it may be flagged falsely (a borrow only starts at a true one).
    @inlinable static func escapeMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highBits
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let quote = (quotes &- ones) & ~quotes & highBits
        let backslash = (backslashes &- ones) & ~backslashes & highBits
        return control | quote | backslash
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

    @inlinable func append(raw bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(buffer.pointee.base + buffer.pointee.count).copyMemory(from: source, byteCount: bytes.count)
        buffer.pointee.count += bytes.count
    }

    @inlinable func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }
}
