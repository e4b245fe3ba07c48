/// A device token as the simulated device's table looks it up: its text in lower case and the text's hash, worked
/// out before the device's lock is taken, so the lock is not held while 64 to 200 hex digits are hashed.
struct TokenKey: Sendable {
    let text: String
    let hash: Int

    init(_ text: String) {
        self.init(text, hash: text.hashValue)
    }

    /// A key with a given hash (tests make two tokens collide with it).
    init(_ text: String, hash: Int) {
        self.text = text
        self.hash = hash
    }
}

/// Where each token's record is in the device's record array: the tokens in that order, and a table from a token's
/// hash to its slot. A lookup compares one text, the candidate's, rather than each text its probe passes (tokens
/// that differ only in their last digits, as a load test's numbered tokens do, compare in full); a token whose hash
/// an earlier token already has is kept by its text in `collided`. 16 bytes a bucket instead of 24.
struct TokenTable: Sendable {
    /// The token in lower case of each slot, in the order the tokens were first seen.
    private(set) var keys: [String] = []
    private var slots: [Int: Int] = [:]
    private var collided: [String: Int] = [:]

    var count: Int { keys.count }

    func slot(of key: TokenKey) -> Int? {
        if let slot = slots[key.hash], keys[slot] == key.text { return slot }
        return collided.isEmpty ? nil : collided[key.text]
    }

    /// Adds a token not in the table at the next slot.
    mutating func append(_ key: TokenKey) {
        let slot = keys.count
        keys.append(key.text)
        if slots[key.hash] == nil {
            slots[key.hash] = slot
        } else {
            collided[key.text] = slot
        }
    }
}
