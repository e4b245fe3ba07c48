import CNative
import Glibc

/// The name/value pairs of one header block to submit, in storage its owner keeps from one block to the next:
/// names and values are copied into one byte buffer, and the `nghttp2_nv` entries over it are made in a second
/// buffer. nghttp2's submit functions copy what they are given, so the buffer may be refilled as soon as
/// `withNameValues` returns; after a connection's first responses, a header block costs no allocation.
///
/// A class over buffers it allocates itself (grown by doubling, never shrunk): each byte and pair is written in
/// place, without an array's uniqueness and capacity checks per append, and the owner keeps it in a constant (no
/// exclusivity check of a stored property per call). Its state sits behind one pointer for the same reason.
public final class NameValueBuffer {
    @usableFromInline
    struct Span {
        @usableFromInline var nameStart: Int
        @usableFromInline var nameCount: Int
        @usableFromInline var valueStart: Int
        @usableFromInline var valueCount: Int
        @usableFromInline var flags: UInt8
    }

    @usableFromInline
    struct Storage {
        @usableFromInline var bytes: UnsafeMutablePointer<UInt8>
        var byteCapacity: Int
        @usableFromInline var byteCount = 0
        /// Where each pair's name and value sit in `bytes`.
        @usableFromInline var spans: UnsafeMutablePointer<Span>
        @usableFromInline var entries: UnsafeMutablePointer<nghttp2_nv>
        var pairCapacity: Int
        @usableFromInline var pairCount = 0
        /// Start of the name of the pair being added.
        var nameStart = 0
    }

    @usableFromInline
    let storage: UnsafeMutablePointer<Storage>

    public init() {
        let byteCapacity = 256
        let pairCapacity = 8
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage(
            bytes: malloc(byteCapacity)!.assumingMemoryBound(to: UInt8.self), byteCapacity: byteCapacity,
            spans: .allocate(capacity: pairCapacity), entries: .allocate(capacity: pairCapacity),
            pairCapacity: pairCapacity))
    }

    deinit {
        free(storage.pointee.bytes)
        storage.pointee.spans.deallocate()
        storage.pointee.entries.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The pairs added since the last `removeAll`.
    public var count: Int { storage.pointee.pairCount }

    /// Forgets every pair, keeping the storage.
    public func removeAll() {
        storage.pointee.byteCount = 0
        storage.pointee.pairCount = 0
    }

    /// Adds a pair.
    public func append(name: String, value: String) {
        beginName()
        appendUTF8(of: name)
        appendValue(value)
    }

    /// Adds a pair whose name is lower-cased as it is copied (HTTP/2 field names are lower case): ASCII letters
    /// byte by byte, a name with other characters by `lowercased()`. `indexed: false` asks the HPACK encoder not to
    /// add the pair to its dynamic table (`NGHTTP2_NV_FLAG_NO_INDEX`): for values that name one response, which
    /// would never be referred to again and each cost the encoder an allocated table entry.
    public func append(lowercasingName name: String, value: String, indexed: Bool = true) {
        beginName()
        // The usual name is lower-case ASCII already (the application's own constants): copied in one piece.
        let copied = name.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard !utf8.contains(where: { $0 >= 0x80 || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) })
            else { return false }
            appendBytes(utf8)
            return true
        }
        if copied != true {
            var ascii = true
            for byte in name.utf8 {
                if byte >= 0x80 { ascii = false; break }
                appendByte(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
            }
            if !ascii {
                storage.pointee.byteCount = storage.pointee.nameStart
                appendBytes(name.lowercased().utf8)
            }
        }
        appendValue(value, indexed: indexed)
    }

    /// Adds a pair whose value is an integer in decimal (`:status`, `content-length`), its digits written in place
    /// (no `String` made for them).
    public func append(name: String, decimal value: Int) {
        beginName()
        appendUTF8(of: name)
        let nameEnd = storage.pointee.byteCount
        // At most 20 digits and a sign.
        let start = reserve(21)
        var cursor = start
        if value < 0 {
            cursor.pointee = UInt8(ascii: "-")
            cursor += 1
        }
        var digits = 1
        var scale: UInt = 10
        let magnitude = value.magnitude
        while digits < 20 && magnitude >= scale {
            digits += 1
            scale = scale.multipliedReportingOverflow(by: 10).partialValue
        }
        var rest = magnitude
        var position = cursor + digits - 1
        repeat {
            position.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            position -= 1
        } while rest > 0
        cursor += digits
        let count = cursor - start
        storage.pointee.byteCount += count
        addSpan(nameEnd: nameEnd, valueStart: nameEnd, valueCount: count, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
    }

    private func beginName() { storage.pointee.nameStart = storage.pointee.byteCount }

    /// Room for `count` more bytes (the buffer `realloc`ed to the next power of two that holds them); returns where
    /// they go (not yet counted).
    private func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        let needed = storage.pointee.byteCount + count
        if needed > storage.pointee.byteCapacity {
            let capacity = 1 << (Int.bitWidth - (needed - 1).leadingZeroBitCount)
            storage.pointee.bytes = realloc(storage.pointee.bytes, capacity)!.assumingMemoryBound(to: UInt8.self)
            storage.pointee.byteCapacity = capacity
        }
        return storage.pointee.bytes + storage.pointee.byteCount
    }

    private func appendByte(_ byte: UInt8) {
        reserve(1).pointee = byte
        storage.pointee.byteCount += 1
    }

    private func appendBytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        reserve(source.count).update(from: base, count: source.count)
        storage.pointee.byteCount += source.count
    }

    private func appendBytes(_ source: String.UTF8View) {
        for byte in source { appendByte(byte) }
    }

    /// Copies a string's UTF-8 bytes in one piece (its contiguous storage; a bridged string byte by byte).
    private func appendUTF8(of text: String) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { appendBytes($0) }
        if copied == nil { appendBytes(text.utf8) }
    }

    private func appendValue(_ value: String, indexed: Bool = true) {
        let nameEnd = storage.pointee.byteCount
        appendUTF8(of: value)
        let flags = indexed ? NGHTTP2_NV_FLAG_NONE.rawValue : NGHTTP2_NV_FLAG_NO_INDEX.rawValue
        addSpan(nameEnd: nameEnd, valueStart: nameEnd, valueCount: storage.pointee.byteCount - nameEnd, flags: UInt8(flags))
    }

    private func addSpan(nameEnd: Int, valueStart: Int, valueCount: Int, flags: UInt8) {
        if storage.pointee.pairCount == storage.pointee.pairCapacity {
            let capacity = storage.pointee.pairCapacity * 2
            let spans = UnsafeMutablePointer<Span>.allocate(capacity: capacity)
            spans.moveInitialize(from: storage.pointee.spans, count: storage.pointee.pairCount)
            storage.pointee.spans.deallocate()
            storage.pointee.spans = spans
            storage.pointee.entries.deallocate()
            storage.pointee.entries = .allocate(capacity: capacity)
            storage.pointee.pairCapacity = capacity
        }
        let nameStart = storage.pointee.nameStart
        (storage.pointee.spans + storage.pointee.pairCount).initialize(to: Span(
            nameStart: nameStart, nameCount: nameEnd - nameStart, valueStart: valueStart, valueCount: valueCount,
            flags: flags))
        storage.pointee.pairCount += 1
    }

    /// Runs `body` with the `nghttp2_nv` entries of every pair, in the order added (valid only inside `body`).
    /// Inlinable, so that each caller gets it specialized for its result (no generic call per header block).
    @inlinable
    public func withNameValues<R>(_ body: (UnsafeMutableBufferPointer<nghttp2_nv>) -> R) -> R {
        let base = storage.pointee.bytes
        let spans = storage.pointee.spans
        let entries = storage.pointee.entries
        let count = storage.pointee.pairCount
        for index in 0..<count {
            let span = spans[index]
            (entries + index).initialize(to: nghttp2_nv(
                name: base + span.nameStart, value: base + span.valueStart, namelen: span.nameCount,
                valuelen: span.valueCount, flags: span.flags))
        }
        return body(UnsafeMutableBufferPointer(start: entries, count: count))
    }
}
