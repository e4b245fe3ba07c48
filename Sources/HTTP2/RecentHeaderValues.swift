import Foundation

/// The last few long header values a connection received, so that a value repeated from one request to the next
/// (the `authorization` bearer token, `apns-topic`, `user-agent`: HPACK sends them from its table every time)
/// becomes the same `String` again instead of a new allocation and UTF-8 validation per request. Equal bytes give
/// an equal string, so nothing a request carries changes; later comparisons of the shared string (the
/// authenticator's memo of its last token) find the same storage at once.
///
/// A class whose slots are fixed-size buffers allocated once: the session holds it in a constant, so a header field
/// reaches it without moving it out of the session and back (each move released two empty arrays) and without an
/// exclusivity check of a stored property.
///
/// Not thread-safe: one per session, on its connection's thread.
final class RecentHeaderValues {
    /// Strings up to this many UTF-8 bytes are stored inline by Swift (no allocation): not worth keeping.
    static let inlineLimit = 15

    /// How many values are kept (8 for a connection's long header values; 1 for its `:path`, which a sender to
    /// many device tokens changes on every request and would otherwise push the others out).
    let capacity: Int
    /// `capacity` long values; an empty slot holds "" (never equal to a long value).
    private let values: UnsafeMutablePointer<String>
    /// The bytes each long value was decoded from, in storage of the slot's own: a repeat is found by a length
    /// comparison and a `memcmp` per slot, without reaching into the stored strings' UTF-8 views. The bytes are the
    /// key, as for short values. An empty slot has count 0.
    private let longKeys: UnsafeMutablePointer<LongKey>
    /// Short values (at most `inlineLimit` bytes: `POST`, `https`, `liveactivity`, `10`) by their bytes, packed in
    /// two words with their length (`key`), and the string each decoded to: a repeat is found by comparing the words
    /// instead of decoding and validating the bytes again. The bytes are the key, so a value with invalid UTF-8
    /// gets the same repaired string a fresh decoding gives. An empty slot has length 0 (an empty value is never
    /// looked up).
    private let shortKeys: UnsafeMutablePointer<ShortKey>
    private let shortValues: UnsafeMutablePointer<String>
    static let shortCapacity = 8
    /// The slots replaced next: `[0]` long, `[1]` short (round robin).
    private let next: UnsafeMutablePointer<Int>

    private struct LongKey {
        var bytes: UnsafeMutableRawPointer?
        var count = 0
        var capacity = 0
    }

    private struct ShortKey: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = 0
    }

    /// The key of `count` bytes (1...`inlineLimit`), read in at most two loads per word instead of copied: 8 to 15
    /// bytes as their first and their last eight (overlapping), 4 to 7 as their first and last four, fewer byte by
    /// byte. For one length every byte lands in a fixed place, so equal keys mean equal bytes.
    private static func key(_ bytes: UnsafeRawPointer, count: Int) -> ShortKey {
        if count >= 8 {
            return ShortKey(
                low: bytes.loadUnaligned(as: UInt64.self),
                high: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), count: count)
        }
        if count >= 4 {
            let first = UInt64(bytes.loadUnaligned(as: UInt32.self))
            let last = UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return ShortKey(low: first | last << 32, count: count)
        }
        var low: UInt64 = 0
        for index in 0..<count { low |= UInt64(bytes.load(fromByteOffset: index, as: UInt8.self)) << (8 * index) }
        return ShortKey(low: low, count: count)
    }

    init(capacity: Int = 8) {
        precondition(capacity > 0)
        self.capacity = capacity
        values = .allocate(capacity: capacity)
        values.initialize(repeating: "", count: capacity)
        longKeys = .allocate(capacity: capacity)
        longKeys.initialize(repeating: LongKey(), count: capacity)
        shortKeys = .allocate(capacity: Self.shortCapacity)
        shortKeys.initialize(repeating: ShortKey(), count: Self.shortCapacity)
        shortValues = .allocate(capacity: Self.shortCapacity)
        shortValues.initialize(repeating: "", count: Self.shortCapacity)
        next = .allocate(capacity: 2)
        next.initialize(repeating: 0, count: 2)
    }

    deinit {
        values.deinitialize(count: capacity)
        values.deallocate()
        for index in 0..<capacity { free(longKeys[index].bytes) }
        longKeys.deinitialize(count: capacity)
        longKeys.deallocate()
        shortKeys.deinitialize(count: Self.shortCapacity)
        shortKeys.deallocate()
        shortValues.deinitialize(count: Self.shortCapacity)
        shortValues.deallocate()
        next.deallocate()
    }

    /// `bytes` as a String (decoded as UTF-8, invalid sequences repaired), reusing a recent equal value.
    func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > Self.inlineLimit else { return shortString(bytes) }
        let count = bytes.count
        let source = UnsafeRawPointer(bytes.baseAddress!)
        for index in 0..<capacity where longKeys[index].count == count {
            if memcmp(longKeys[index].bytes!, source, count) == 0 { return values[index] }
        }
        let decoded = String(decoding: bytes, as: UTF8.self)
        let slot = next[0]
        values[slot] = decoded
        if longKeys[slot].capacity < count {
            longKeys[slot].bytes = realloc(longKeys[slot].bytes, count)!
            longKeys[slot].capacity = count
        }
        longKeys[slot].bytes!.copyMemory(from: source, byteCount: count)
        longKeys[slot].count = count
        next[0] = slot + 1 == capacity ? 0 : slot + 1
        return decoded
    }

    private func shortString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
        let key = Self.key(UnsafeRawPointer(base), count: bytes.count)
        for index in 0..<Self.shortCapacity where shortKeys[index] == key { return shortValues[index] }
        let decoded = String(decoding: bytes, as: UTF8.self)
        let slot = next[1]
        shortKeys[slot] = key
        shortValues[slot] = decoded
        next[1] = slot + 1 == Self.shortCapacity ? 0 : slot + 1
        return decoded
    }
}
