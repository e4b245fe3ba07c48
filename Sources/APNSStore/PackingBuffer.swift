import Foundation

/// The bytes of the record a `DeliveryPacker` is packing: raw memory kept from record to record and grown when a
/// record needs more, written without an array's uniqueness and capacity checks for every byte (a record is ~60
/// small writes).
///
/// Not copy-on-write: a copy shares the bytes. Each packer keeps its buffer in one place (`DeliveryPackers`).
struct PackingBuffer: Sendable {
    private final class Storage: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit { base.deallocate() }
    }

    private var storage = Storage(capacity: 1024)
    /// Bytes written since the last `removeAll`.
    private(set) var count = 0

    mutating func removeAll() { count = 0 }

    /// Forgets the bytes from `count` on.
    mutating func truncate(to count: Int) {
        precondition(count <= self.count)
        self.count = count
    }

    /// Makes room for `more` bytes after the last.
    @inline(__always)
    mutating func reserve(_ more: Int) {
        if storage.capacity - count < more { grow(more) }
    }

    @inline(never)
    private mutating func grow(_ more: Int) {
        let larger = Storage(capacity: max(storage.capacity * 2, count + more))
        larger.base.initialize(from: storage.base, count: count)
        storage = larger
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        storage.base[count] = byte
        count += 1
    }

    /// Appends `count` bytes written by `body` into the room it is given (exactly `count` bytes).
    @inline(__always)
    mutating func append(count added: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        reserve(added)
        body(storage.base + count)
        count += added
    }

    /// Little-endian base-128, seven bits a byte, the high bit on every byte but the last.
    @inline(__always)
    mutating func appendVarint(_ value: UInt64) {
        if value < 0x80 { return append(UInt8(truncatingIfNeeded: value)) }
        appendLongVarint(value)
    }

    private mutating func appendLongVarint(_ value: UInt64) {
        reserve(10)
        count = Self.writeVarint(value, into: storage.base, at: count)
    }

    /// Appends `tag`, the count of `text` (a varint) and its bytes, making room once; returns where the bytes start.
    @discardableResult
    mutating func appendCounted(tag: UInt8, _ text: UnsafeBufferPointer<UInt8>) -> Int {
        reserve(text.count + 11)
        let base = storage.base
        base[count] = tag
        let start = Self.writeVarint(UInt64(text.count), into: base, at: count + 1)
        if let source = text.baseAddress, !text.isEmpty { (base + start).update(from: source, count: text.count) }
        count = start + text.count
        return start
    }

    /// Writes `value` as a varint at `offset` (room checked by the caller); returns the offset after it.
    @inline(__always)
    private static func writeVarint(_ value: UInt64, into base: UnsafeMutablePointer<UInt8>, at offset: Int) -> Int {
        var value = value
        var written = offset
        while value >= 0x80 {
            base[written] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            written += 1
        }
        base[written] = UInt8(truncatingIfNeeded: value)
        return written + 1
    }

    subscript(index: Int) -> UInt8 {
        get {
            precondition(index >= 0 && index < count)
            return storage.base[index]
        }
        set {
            precondition(index >= 0 && index < count)
            storage.base[index] = newValue
        }
    }

    /// Whether the bytes from `start` on begin with `other`'s.
    func bytesEqual(at start: Int, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        precondition(start >= 0 && start + other.count <= count)
        guard let otherBase = other.baseAddress else { return true }
        return memcmp(storage.base + start, otherBase, other.count) == 0
    }

    /// Runs `body` on the bytes written (valid during `body` only).
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withExtendedLifetime(storage) { body(UnsafeBufferPointer(start: storage.base, count: count)) }
    }
}
