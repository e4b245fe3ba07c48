
/// A device token as the simulated device's table looks it up: its text in lower case and the text's hash, worked
/// out before the device's lock is taken, so the lock is not held while 64 to 200 hex digits are hashed.
struct TokenKey: Sendable {
    let text: String
    let hash: Int

    init(_ text: String) {
        self.init(text, hash: Self.hash(text))
    }

    /// A key with a given hash (tests make two tokens collide with it).
    init(_ text: String, hash: Int) {
        self.text = text
        self.hash = hash
    }

    /// The key of a token as a push names it: in lower case as the table keys it (a token already in lower case, as
    /// senders send them, is kept as it is rather than copied; only ASCII capitals are looked for, as
    /// `LiveActivityDeviceState.lowercasedToken`), with its hash.
    init(pushed token: String) {
        self.init(LiveActivityDeviceState.lowercasedToken(token))
    }

    /// A random key per process, so the hashes a sender's tokens get cannot be chosen to collide.
    private static let seed = UInt64.random(in: .min ... .max)

    /// The table's hash of a token's text: its UTF-8 eight bytes at a time through a multiply-xorshift, keyed by
    /// `seed`, then MurmurHash3's 64-bit finalizer (the table reads the low bits). `String.hashValue` ran SipHash
    /// over the 64 to 200 digits (~1,000 instructions per push); this is a fifth of that. Only where a token's
    /// record sits depends on it: a lookup still compares the text.
    static func hash(_ text: String) -> Int {
        let bytes = text.utf8.span
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = seed ^ UInt64(bytes.count) &* multiplier
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ CanonicalUUID.word(bytes, at: index, count: 8)) &* multiplier
            hash ^= hash >> 29
            index += 8
        }
        if index < bytes.count {
            hash = (hash ^ CanonicalUUID.word(bytes, at: index, count: bytes.count - index)) &* multiplier
        }
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }
}

/// Where each token's record is in the device's record array: the tokens in that order, and an open-addressing
/// table from a token's hash (already worked out, `TokenKey`) to its slot. A bucket holds the hash and the slot
/// side by side, so a lookup reads one bucket (no second hashing of the hash, as a `[Int: Int]` did, nor its
/// separate key and value arrays) and compares one text, the candidate's whose hash is equal (tokens that differ
/// only in their last digits, as a load test's numbered tokens do, compare in full); tokens with one hash sit in
/// the next buckets. 16 bytes a bucket, at most half of them used.
struct TokenTable: Sendable {
    /// The token in lower case of each slot, in the order the tokens were first seen.
    private(set) var keys: [String] = []
    private var buckets: [Bucket] = []

    private struct Bucket: Sendable {
        var hash: Int
        /// The slot plus one; 0 marks an empty bucket.
        var slotPlusOne: Int
    }

    var count: Int { keys.count }

    init() {}

    /// A table of `keys`, slot by slot in that order (a device that forgot its oldest tokens is indexed again).
    init(keys: some Sequence<String>) {
        for key in keys { append(TokenKey(key)) }
    }

    func slot(of key: TokenKey) -> Int? {
        guard !buckets.isEmpty else { return nil }
        let mask = buckets.count - 1
        var index = key.hash & mask
        while true {
            let bucket = buckets[index]
            if bucket.slotPlusOne == 0 { return nil }
            if bucket.hash == key.hash, keys[bucket.slotPlusOne - 1] == key.text { return bucket.slotPlusOne - 1 }
            index = (index + 1) & mask
        }
    }

    /// Adds a token not in the table at the next slot.
    mutating func append(_ key: TokenKey) {
        if (keys.count + 1) * 2 > buckets.count { grow() }
        keys.append(key.text)
        insert(Bucket(hash: key.hash, slotPlusOne: keys.count))
    }

    private mutating func insert(_ bucket: Bucket) {
        let mask = buckets.count - 1
        var index = bucket.hash & mask
        while buckets[index].slotPlusOne != 0 { index = (index + 1) & mask }
        buckets[index] = bucket
    }

    /// Doubles the buckets (at least 16) and places every token again.
    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: Bucket(hash: 0, slotPlusOne: 0), count: max(16, old.count * 2))
        for bucket in old where bucket.slotPlusOne != 0 { insert(bucket) }
    }
}
