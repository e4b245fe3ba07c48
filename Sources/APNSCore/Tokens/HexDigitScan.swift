/// Byte scans over a device token's UTF-8 eight bytes at a time (a token is 64 to 200 hex digits, scanned twice per
/// push: the path rule looks for a `/`, the format rule counts hex digits). Each eight bytes are read as one
/// little-endian word and judged with carry-free byte arithmetic; any word with a byte outside the fast case is
/// finished byte by byte, so the answers are those of the plain byte loops.
enum HexDigitScan {
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// How many of `bytes`, from the first, are ASCII hexadecimal digits (`0-9`, `a-f`, `A-F`).
    static func leadingHexDigitCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        while count + 8 <= bytes.count, allHexDigits(word(bytes, at: count)) { count += 8 }
        while count < bytes.count, isHexDigit(bytes[count]) { count += 1 }
        return count
    }

    /// Whether `byte` occurs in `bytes`.
    static func contains(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
        var index = 0
        while index + 8 <= bytes.count {
            // A byte of `word ^ pattern` is zero exactly where the byte matches (the classic "has a zero byte"
            // test: exact, since a borrow only starts at a zero byte and the lowest zero byte is always flagged).
            let difference = word(bytes, at: index) ^ pattern
            if (difference &- 0x0101_0101_0101_0101) & ~difference & highBits != 0 { return true }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == byte { return true }
            index += 1
        }
        return false
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
             UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// Eight bytes from `index` as a little-endian word (the compiler makes it one load).
    @inline(__always)
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        var value: UInt64 = 0
        for offset in 0..<8 { value |= UInt64(bytes[index + offset]) << UInt64(8 * offset) }
        return value
    }

    /// Whether every byte of `word` is an ASCII hex digit. For bytes below 0x80, adding `0x80 - n` to every byte
    /// sets a byte's high bit exactly when it is at least `n`, without a carry into the next byte.
    @inline(__always)
    private static func allHexDigits(_ word: UInt64) -> Bool {
        guard word & highBits == 0 else { return false }
        let atLeast0 = word &+ 0x5050_5050_5050_5050  // byte >= 0x30 ("0")
        let above9 = word &+ 0x4646_4646_4646_4646  // byte >= 0x3A
        let folded = word | 0x2020_2020_2020_2020  // "A"-"F" to "a"-"f"; digits unchanged
        let atLeastA = folded &+ 0x1F1F_1F1F_1F1F_1F1F  // folded >= 0x61 ("a")
        let aboveF = folded &+ 0x1919_1919_1919_1919  // folded >= 0x67
        let digits = (atLeast0 & ~above9) | (atLeastA & ~aboveF)
        return digits & highBits == highBits
    }
}
