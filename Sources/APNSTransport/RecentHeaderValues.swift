import Foundation

/// The last few long header values a connection received, so that a value repeated from one request to the next
/// (the `authorization` bearer token, `apns-topic`, `user-agent`: HPACK sends them from its table every time)
/// becomes the same `String` again instead of a new allocation and UTF-8 validation per request. Equal bytes give
/// an equal string, so nothing a request carries changes; later comparisons of the shared string (the
/// authenticator's memo of its last token) find the same storage at once.
///
/// Not thread-safe: one per session, on its connection's thread.
struct RecentHeaderValues {
    /// Strings up to this many UTF-8 bytes are stored inline by Swift (no allocation): not worth keeping.
    static let inlineLimit = 15

    /// How many values are kept (8 for a connection's long header values; 1 for its `:path`, which a sender to
    /// many device tokens changes on every request and would otherwise push the others out).
    let capacity: Int
    private var values: [String] = []
    private var next = 0
    /// Short values (at most `inlineLimit` bytes: `POST`, `https`, `liveactivity`, `10`) by their bytes, packed in
    /// two words with their length, and the string each decoded to: a repeat is found by comparing the words
    /// instead of decoding and validating the bytes again. The bytes are the key, so a value with invalid UTF-8
    /// gets the same repaired string a fresh decoding gives.
    private var shortValues: [(key: ShortKey, value: String)] = []
    private var nextShort = 0
    static let shortCapacity = 8

    private struct ShortKey: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = 0
    }

    /// What stands in the owner's property while its values are moved out for a call (no storage).
    static var movedOut: RecentHeaderValues { RecentHeaderValues(capacity: 1) }

    init(capacity: Int = 8) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// `bytes` as a String (decoded as UTF-8, invalid sequences repaired), reusing a recent equal value.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > Self.inlineLimit else { return shortString(bytes) }
        for index in values.indices where values[index].utf8.count == bytes.count {
            // Bytes equal to a stored string's UTF-8 are valid UTF-8 and decode to exactly that string.
            let equal = values[index].utf8.withContiguousStorageIfAvailable { stored in
                memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
            if equal == true { return values[index] }
        }
        let decoded = String(decoding: bytes, as: UTF8.self)
        if values.count < capacity {
            values.append(decoded)
        } else {
            values[next] = decoded
            next = (next + 1) % capacity
        }
        return decoded
    }

    private mutating func shortString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard !bytes.isEmpty else { return "" }
        var key = ShortKey(count: bytes.count)
        withUnsafeMutableBytes(of: &key.low) { low in
            withUnsafeMutableBytes(of: &key.high) { high in
                let split = min(bytes.count, 8)
                low.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[..<split]))
                high.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[split...]))
            }
        }
        for index in shortValues.indices where shortValues[index].key == key { return shortValues[index].value }
        let decoded = String(decoding: bytes, as: UTF8.self)
        if shortValues.count < Self.shortCapacity {
            shortValues.append((key, decoded))
        } else {
            shortValues[nextShort] = (key, decoded)
            nextShort = (nextShort + 1) % Self.shortCapacity
        }
        return decoded
    }
}
