import APNSCore
import APNSJSON
import HTTPContract

/// The parameter values of one INSERT in one byte buffer: per value a tag byte, then an integer's 8 bytes (little
/// endian) or a text's or blob's 4-byte length (little endian) and its bytes. A pushed record's row is built on the
/// appending thread and bound by the writer straight from this buffer (`SQLiteConnection.Statement.run(_:)`, which
/// lets SQLite read the bytes in place): one buffer per row, where an array of `SQLiteValue`s cost one for the
/// array and one inside SQLite for each text or blob it copied when bound.
///
/// The buffer is a `JSONWriter`'s, so the record's JSON is written straight into the row (`appendBlob`), not written
/// elsewhere and copied in. Like a writer, a copy of a row shares its bytes; a row is built on one thread and then
/// handed whole to the writer thread through the queue's lock (hence `@unchecked Sendable`).
struct SQLiteRow: @unchecked Sendable {
    enum Tag: UInt8 {
        case null = 0, integer, text, blob
    }

    /// The bytes. Written directly only between `beginBlob` and `endBlob` (a record's JSON); everything else goes
    /// through the `append` functions.
    var storage: JSONWriter

    /// An empty row with room for `capacity` bytes (the `encodedCount`s of what will be appended).
    init(capacity: Int) {
        storage = JSONWriter(capacity: capacity)
    }

    /// The row's bytes (a copy; the writer binds them in place through `withUnsafeBytes`).
    var bytes: [UInt8] { storage.bytes }

    /// The row's bytes in place, valid only inside `body`.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes(body)
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
        case .null: appendNull()
        case .integer(let number): append(number)
        case .text(let text): append(text: text)
        case .blob(let blob): blob.withUnsafeBytes { append(.blob, contentsOf: $0) }
        }
    }

    mutating func appendNull() {
        storage.appendRaw(Tag.null.rawValue)
    }

    /// Appends a text value (its UTF-8 bytes, read in place).
    mutating func append(text: String) {
        text.withUTF8InPlace { append(.text, contentsOf: UnsafeRawBufferPointer($0)) }
    }

    /// Appends a text value, or NULL for nil.
    @inline(__always)
    mutating func append(optionalText text: String?) {
        if let text { append(text: text) } else { appendNull() }
    }

    mutating func append(_ number: Int64) {
        storage.appendRaw(Tag.integer.rawValue)
        appendLittleEndian(UInt64(bitPattern: number), byteCount: 8)
    }

    /// Appends a text or blob value whose content is `content`.
    mutating func append(_ tag: Tag, contentsOf content: UnsafeRawBufferPointer) {
        precondition(tag == .text || tag == .blob, "only texts and blobs have content")
        storage.appendRaw(tag.rawValue)
        appendLittleEndian(UInt64(content.count), byteCount: 4)
        storage.appendRaw(content)
    }

    /// Appends a blob whose content `writeContent` writes into the row's own buffer (a record's JSON: no copy of it
    /// is made), its length set from what was written. The writer is at the top level (no JSON container open).
    mutating func appendBlob(writeContent: (inout JSONWriter) -> Void) {
        let start = beginBlob()
        writeContent(&storage)
        endBlob(start)
    }

    /// Appends a stored record's blob: `DeliveryCodec.formatTag` and the codec's bytes, written in place.
    mutating func appendBlob(encoding record: DeliveryRecord) {
        let start = beginBlob()
        storage.appendRaw(DeliveryCodec.formatTag)
        DeliveryCodec.encode(record, into: &storage)
        endBlob(start)
    }

    /// Starts a blob whose content is then written through `storage` (at the top level: no JSON container open);
    /// `endBlob` sets its length. The same bytes as `appendBlob`, without a closure.
    mutating func beginBlob() -> BlobStart {
        storage.appendRaw(Tag.blob.rawValue)
        let lengthOffset = storage.byteCount
        appendLittleEndian(0, byteCount: 4)
        return BlobStart(lengthOffset: lengthOffset)
    }

    /// Ends the blob `beginBlob` started: its length is what was written since.
    mutating func endBlob(_ start: BlobStart) {
        let count = storage.byteCount - start.lengthOffset - 4
        precondition(count <= Int(UInt32.max), "a blob longer than a row can hold")
        patchLittleEndian(UInt64(count), byteCount: 4, at: start.lengthOffset)
    }

    /// Where a blob's length goes (`beginBlob`).
    struct BlobStart {
        fileprivate let lengthOffset: Int
    }

    /// Replaces the first value, an integer (the row id, assigned once the row is queued).
    mutating func replaceFirstInteger(with number: Int64) {
        precondition(storage.withUnsafeBytes { $0.first } == Tag.integer.rawValue, "the row does not start with an integer")
        patchLittleEndian(UInt64(bitPattern: number), byteCount: 8, at: 1)
    }

    /// One append of the value's low `byteCount` bytes (a byte at a time cost an append each, ~30 per row).
    private mutating func appendLittleEndian(_ value: UInt64, byteCount: Int) {
        Swift.withUnsafeBytes(of: value.littleEndian) { word in
            storage.appendRaw(UnsafeRawBufferPointer(rebasing: word.prefix(byteCount)))
        }
    }

    private mutating func patchLittleEndian(_ value: UInt64, byteCount: Int, at offset: Int) {
        storage.withUnsafeMutableBytes { bytes in
            precondition(offset + byteCount <= bytes.count, "a patch past the row's end")
            Swift.withUnsafeBytes(of: value.littleEndian) { word in
                bytes.baseAddress!.advanced(by: offset).copyMemory(from: word.baseAddress!, byteCount: byteCount)
            }
        }
    }
}

/// The row's buffer as the codec's output (`SQLiteRow.appendBlob(encoding:)`): strings' UTF-8 read in place.
extension JSONWriter: DeliveryByteSink {
    mutating func appendByte(_ byte: UInt8) { appendRaw(byte) }

    mutating func appendUTF8(_ text: String) {
        text.withUTF8InPlace { appendRaw(UnsafeRawBufferPointer($0)) }
    }

    mutating func appendBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { appendRaw($0) }
    }
}
