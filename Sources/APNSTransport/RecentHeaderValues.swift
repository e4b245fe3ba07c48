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
    /// Short values (at most `inlineLimit` bytes: `POST`, `https`, `liveactivity`, `10`) by their bytes, packed in
    /// two words with their length, and the string each decoded to: a repeat is found by comparing the words
    /// instead of decoding and validating the bytes again. The bytes are the key, so a value with invalid UTF-8
    /// gets the same repaired string a fresh decoding gives. An empty slot has length 0 (an empty value is never
    /// looked up).
    private let shortKeys: UnsafeMutablePointer<ShortKey>
    private let shortValues: UnsafeMutablePointer<String>
    static let shortCapacity = 8
    /// The slots replaced next: `[0]` long, `[1]` short (round robin).
    private let next: UnsafeMutablePointer<Int>

    private struct ShortKey: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = 0
    }

    init(capacity: Int = 8) {
        precondition(capacity > 0)
        self.capacity = capacity
        values = .allocate(capacity: capacity)
        values.initialize(repeating: "", count: capacity)
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
        shortKeys.deinitialize(count: Self.shortCapacity)
        shortKeys.deallocate()
        shortValues.deinitialize(count: Self.shortCapacity)
        shortValues.deallocate()
        next.deallocate()
    }

    /// `bytes` as a String (decoded as UTF-8, invalid sequences repaired), reusing a recent equal value.
    func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > Self.inlineLimit else { return shortString(bytes) }
        for index in 0..<capacity where values[index].utf8.count == bytes.count {
            // Bytes equal to a stored string's UTF-8 are valid UTF-8 and decode to exactly that string.
            let equal = values[index].utf8.withContiguousStorageIfAvailable { stored in
                memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
            if equal == true { return values[index] }
        }
        let decoded = String(decoding: bytes, as: UTF8.self)
        let slot = next[0]
        values[slot] = decoded
        next[0] = slot + 1 == capacity ? 0 : slot + 1
        return decoded
    }

    private func shortString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard !bytes.isEmpty else { return "" }
        var key = ShortKey(count: bytes.count)
        withUnsafeMutableBytes(of: &key.low) { low in
            withUnsafeMutableBytes(of: &key.high) { high in
                let split = min(bytes.count, 8)
                low.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[..<split]))
                high.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[split...]))
            }
        }
        for index in 0..<Self.shortCapacity where shortKeys[index] == key { return shortValues[index] }
        let decoded = String(decoding: bytes, as: UTF8.self)
        let slot = next[1]
        shortKeys[slot] = key
        shortValues[slot] = decoded
        next[1] = slot + 1 == Self.shortCapacity ? 0 : slot + 1
        return decoded
    }
}
