/// The parameter values of one INSERT in one byte buffer: per value a tag byte, then an integer's 8 bytes (little
/// endian) or a text's or blob's 4-byte length (little endian) and its bytes. A pushed record's row is built on the
/// appending thread and bound by the writer straight from this buffer (`SQLiteConnection.Statement.run(_:)`, which
/// lets SQLite read the bytes in place): one allocation per row, where an array of `SQLiteValue`s cost one for the
/// array and one inside SQLite for each text or blob it copied when bound.
struct SQLiteRow: Sendable {
    enum Tag: UInt8 {
        case null = 0, integer, text, blob
    }

    private(set) var bytes: [UInt8] = []

    /// An empty row with room for `capacity` bytes (the `encodedCount`s of what will be appended).
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The bytes `value` takes in a row.
    static func encodedCount(_ value: SQLiteValue) -> Int {
        switch value {
        case .null: 1
        case .integer: 9
        case .text(let text): 5 + text.utf8.count
        case .blob(let bytes): 5 + bytes.count
        }
    }

    mutating func append(_ value: SQLiteValue) {
        switch value {
        case .null: bytes.append(Tag.null.rawValue)
        case .integer(let number): append(number)
        case .text(let text): append(.text, contentsOf: text.utf8)
        case .blob(let blob): append(.blob, contentsOf: blob)
        }
    }

    mutating func append(_ number: Int64) {
        bytes.append(Tag.integer.rawValue)
        appendLittleEndian(UInt64(bitPattern: number), byteCount: 8)
    }

    /// Appends a text or blob value whose content is `content`.
    mutating func append(_ tag: Tag, contentsOf content: some Collection<UInt8>) {
        precondition(tag == .text || tag == .blob, "only texts and blobs have content")
        bytes.append(tag.rawValue)
        appendLittleEndian(UInt64(content.count), byteCount: 4)
        bytes.append(contentsOf: content)
    }

    /// Appends a blob of `count` bytes that `writeContent` appends to the buffer itself (no intermediate array).
    mutating func appendBlob(count: Int, writeContent: (inout [UInt8]) -> Void) {
        bytes.append(Tag.blob.rawValue)
        appendLittleEndian(UInt64(count), byteCount: 4)
        writeContent(&bytes)
    }

    /// Replaces the first value, an integer (the row id, assigned once the row is queued).
    mutating func replaceFirstInteger(with number: Int64) {
        precondition(bytes.first == Tag.integer.rawValue, "the row does not start with an integer")
        let pattern = UInt64(bitPattern: number)
        for offset in 0..<8 { bytes[1 + offset] = UInt8(truncatingIfNeeded: pattern >> (8 * offset)) }
    }

    /// One append of the value's low `byteCount` bytes (a byte at a time cost an append each, ~30 per row).
    private mutating func appendLittleEndian(_ value: UInt64, byteCount: Int) {
        withUnsafeBytes(of: value.littleEndian) { word in
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: word.prefix(byteCount)))
        }
    }
}
