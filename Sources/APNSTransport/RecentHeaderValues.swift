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

    init(capacity: Int = 8) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// `bytes` as a String (decoded as UTF-8, invalid sequences repaired), reusing a recent equal value.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > Self.inlineLimit else { return String(decoding: bytes, as: UTF8.self) }
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
}
