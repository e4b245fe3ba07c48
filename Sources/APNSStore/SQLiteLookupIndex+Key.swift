import APNSCore
extension SQLiteLookupIndex {
    /// A lookup key (`SQLiteLookupKey`) as a dictionary key. The key is already a 64-bit FNV-1a hash of its text,
    /// so the dictionary's hash is a multiply-and-fold of it with the dictionary's seed instead of SipHash over its
    /// eight bytes (the index hashes four or five keys per committed row once the store is full).
    struct HashedKey: Hashable {
        let value: Int64

        init(_ value: Int64) { self.value = value }

        static func == (lhs: HashedKey, rhs: HashedKey) -> Bool { lhs.value == rhs.value }

        func hash(into hasher: inout Hasher) { hasher.combine(value) }

        // Dictionary and Set call this customization point of `Hashable`; `hashValue` and `hash(into:)` keep the
        // standard (SipHash) answers for anyone else. The multiply spreads FNV's mixed high bits into the low bits
        // the dictionary's buckets use; the fold brings the high half down.
        func _rawHashValue(seed: Int) -> Int {
            let mixed = (UInt64(bitPattern: value) ^ UInt64(bitPattern: Int64(seed))) &* 0x9E37_79B9_7F4A_7C15
            return Int(bitPattern: UInt(mixed ^ (mixed >> 29)))
        }
    }
}
