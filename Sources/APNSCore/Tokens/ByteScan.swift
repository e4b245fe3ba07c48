/// Whether a byte occurs in a device token's UTF-8, eight bytes at a time (a token is 64 to 200 hex digits; the path
/// rule looks for a `/` on every push). Each eight bytes are read as one little-endian word and tested with
/// carry-free byte arithmetic, so the answer is that of the plain byte loop. (Counting a token's leading hex digits
/// is `CanonicalUUID.leadingHexDigitCount`, on the same word arithmetic.)
enum ByteScan {
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether `byte` occurs in `bytes`.
    static func contains(_ byte: UInt8, in bytes: Span<UInt8>) -> Bool {
        let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
        var index = 0
        while index + 8 <= bytes.count {
            // A byte of `word ^ pattern` is zero exactly where the byte matches (the classic "has a zero byte"
            // test: exact, since a borrow only starts at a zero byte and the lowest zero byte is always flagged).
            let difference = CanonicalUUID.word(bytes, at: index, count: 8) ^ pattern
            if (difference &- 0x0101_0101_0101_0101) & ~difference & highBits != 0 { return true }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == byte { return true }
            index += 1
        }
        return false
    }

    /// Whether the two hold the same bytes.
    static func equal(_ first: Span<UInt8>, _ second: Span<UInt8>) -> Bool {
        guard first.count == second.count else { return false }
        for index in first.indices where first[index] != second[index] { return false }
        return true
    }
}
