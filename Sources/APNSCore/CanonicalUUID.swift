/// A UUID's canonical text, `8-4-4-4-12` hexadecimal digits (the form of an `apns-id`, A-SEND), read and written as
/// bytes: what `RandomUUID` writes, and what the simulated device's timeline and the in-memory store keep as 16
/// bytes instead of a 36-character string.
public enum CanonicalUUID {
    /// A UUID's 128 bits as `parse` reads them from canonical text, and the case of that text's letters (nil when it
    /// has none).
    public struct Bits: Sendable, Hashable {
        public var high: UInt64
        public var low: UInt64
        public var uppercase: Optional<Bool>

        public init(high: UInt64, low: UInt64, uppercase: Bool?) {
            self.high = high
            self.low = low
            self.uppercase = uppercase
        }

        /// What `parse` reads back from `text(high:low:uppercase:)`'s text, without the text: its letters are in
        /// `uppercase`'s case, and it has letters when a digit is above 9.
        public static func ofText(high: UInt64, low: UInt64, uppercase: Bool) -> Bits {
            Bits(high: high, low: low, uppercase: hasLetterDigit(high) || hasLetterDigit(low) ? uppercase : nil)
        }

        /// Whether a hexadecimal digit (nibble) of `word` is above 9: its high bit set with either of the two below.
        @inline(__always)
        static func hasLetterDigit(_ word: UInt64) -> Bool {
            word & (word << 1 | word << 2) & 0x8888_8888_8888_8888 != 0
        }
    }

    /// Whether the canonical text has a dash at `position` (0-based).
    @inlinable public static func isDash(at position: Int) -> Bool {
        position == 8 || position == 13 || position == 18 || position == 23
    }

    /// The value of a hexadecimal digit and whether it is an upper-case letter (nil for a decimal digit); nil for
    /// any other byte.
    @inlinable public static func hexDigit(_ byte: UInt8) -> (value: UInt8, upper: Bool?)? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): (byte - UInt8(ascii: "0"), nil)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): (byte - UInt8(ascii: "a") + 10, false)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): (byte - UInt8(ascii: "A") + 10, true)
        default: nil
        }
    }

    /// The 128 bits of canonical text whose letters are all of one case, and whether they are upper case (nil when
    /// there are none); nil for any other text. The 32 digits are read as four words of eight, each decoded and
    /// checked at once (`decodeEightHexDigits`): this runs for the `apns-id` of most pushes, in the device's
    /// timeline and the store.
    public static func parse(_ bytes: Span<UInt8>) -> (high: UInt64, low: UInt64, uppercase: Bool?)? {
        let dash = UInt8(ascii: "-")
        guard bytes.count == 36, bytes[8] == dash, bytes[13] == dash, bytes[18] == dash, bytes[23] == dash else {
            return nil
        }
        guard let first = decodeEightHexDigits(word(bytes, at: 0, count: 8)),
              let second = decodeEightHexDigits(word(bytes, at: 9) | word(bytes, at: 14) << 32),
              let third = decodeEightHexDigits(word(bytes, at: 19) | word(bytes, at: 24) << 32),
              let fourth = decodeEightHexDigits(word(bytes, at: 28, count: 8))
        else { return nil }
        let upper = first.upper | second.upper | third.upper | fourth.upper
        let lower = first.lower | second.lower | third.lower | fourth.lower
        guard upper == 0 || lower == 0 else { return nil }
        let uppercase: Bool? = upper != 0 ? true : lower != 0 ? false : nil
        return (
            UInt64(first.value.byteSwapped) << 32 | UInt64(second.value.byteSwapped),
            UInt64(third.value.byteSwapped) << 32 | UInt64(fourth.value.byteSwapped), uppercase
        )
    }

    /// `count` (up to 8) bytes from `start` as a little-endian word: the first byte in the lowest bits (the bounds
    /// are checked once, for the part, and the compiler reads it with a few loads).
    @inlinable @inline(__always)
    public static func word(_ bytes: Span<UInt8>, at start: Int, count: Int = 4) -> UInt64 {
        let part = bytes.extracting(start..<start + count)
        var word: UInt64 = 0
        for index in part.indices { word |= UInt64(part[index]) << (8 * index) }
        return word
    }

    /// Eight ASCII hexadecimal digits held little-endian in `word` (the first digit in the lowest byte), decoded
    /// with a few word operations instead of a branch or a table lookup per digit: `value` holds the four bytes they
    /// make in the same order (the first digit pair in the lowest byte); `upper` and `lower` are non-zero when an
    /// upper- or lower-case letter is among them. Nil when any byte is not a hexadecimal digit (`hexDigit`).
    @inlinable @inline(__always)
    public static func decodeEightHexDigits(_ word: UInt64) -> (value: UInt32, upper: UInt64, lower: UInt64)? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        guard word & highBits == 0 else { return nil }
        // With every byte below 0x80, adding 0x80 - lo sets a byte's high bit exactly when it is >= lo, and adding
        // 0x7F - hi exactly when it is > hi; no carry crosses into the next byte.
        let digits = (word &+ ones &* 0x50) & ~(word &+ ones &* 0x46) & highBits  // "0"..."9"
        let folded = word | 0x2020_2020_2020_2020  // "A"..."F" to "a"..."f"; digits unchanged
        let letters = (folded &+ ones &* 0x1F) & ~(folded &+ ones &* 0x19) & highBits  // "a"..."f"
        guard digits | letters == highBits else { return nil }
        let lowerCaseBit = (word & 0x2020_2020_2020_2020) << 2  // bit 0x20 of each byte moved to its high bit
        let values = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (letters >> 7) &* 9
        let pairs = (values & 0x00FF_00FF_00FF_00FF) << 4 | (values >> 8) & 0x00FF_00FF_00FF_00FF
        var packed = (pairs | pairs >> 8) & 0x0000_FFFF_0000_FFFF
        packed = (packed | packed >> 16) & 0xFFFF_FFFF
        return (UInt32(truncatingIfNeeded: packed), letters & ~lowerCaseBit, letters & lowerCaseBit)
    }

    /// How many of `bytes`, from the first, are hexadecimal digits (`hexDigit`): eight at a time while all eight are
    /// (`decodeEightHexDigits`; a device token is 64 to 200 digits, counted on every push), then byte by byte.
    public static func leadingHexDigitCount(_ bytes: Span<UInt8>) -> Int {
        var count = 0
        while count + 8 <= bytes.count, decodeEightHexDigits(word(bytes, at: count, count: 8)) != nil { count += 8 }
        while count < bytes.count, hexDigit(bytes[count]) != nil { count += 1 }
        return count
    }

    /// The canonical text of 128 bits, e.g. `E621E1F8-C36C-495A-93FC-0C247A3E6E5F` (or lower case).
    public static func text(high: UInt64, low: UInt64, uppercase: Bool) -> String {
        // Eight digits at a time from a 32-bit word, without a branch or a table per digit, written with one store
        // per byte (this runs for most pushes' `apns-id` and every development push's `apns-unique-id`).
        let letterOffset: UInt64 = uppercase ? 7 : 39  // "A" or "a", less "0", less 10
        let first = hexDigits(UInt32(truncatingIfNeeded: high >> 32), letterOffset)
        let second = hexDigits(UInt32(truncatingIfNeeded: high), letterOffset)
        let third = hexDigits(UInt32(truncatingIfNeeded: low >> 32), letterOffset)
        let fourth = hexDigits(UInt32(truncatingIfNeeded: low), letterOffset)
        return String(unsafeUninitializedCapacity: 36) { buffer in
            /// Four digits of `digits` (the first four, or with `second` the last four) from `start`.
            @inline(__always) func put(_ digits: UInt64, second: Bool, at start: Int) {
                let four = second ? digits : digits >> 32
                buffer[start] = UInt8(truncatingIfNeeded: four >> 24)
                buffer[start + 1] = UInt8(truncatingIfNeeded: four >> 16)
                buffer[start + 2] = UInt8(truncatingIfNeeded: four >> 8)
                buffer[start + 3] = UInt8(truncatingIfNeeded: four)
            }
            let dash = UInt8(ascii: "-")
            put(first, second: false, at: 0)
            put(first, second: true, at: 4)
            buffer[8] = dash
            put(second, second: false, at: 9)
            buffer[13] = dash
            put(second, second: true, at: 14)
            buffer[18] = dash
            put(third, second: false, at: 19)
            buffer[23] = dash
            put(third, second: true, at: 24)
            put(fourth, second: false, at: 28)
            put(fourth, second: true, at: 32)
            return 36
        }
    }

    /// The eight hexadecimal digits of `value` as ASCII bytes, the first digit in the most significant byte: the
    /// nibbles spread one a byte, then "0" added to each, and `letterOffset` more to each above 9.
    @inline(__always)
    static func hexDigits(_ value: UInt32, _ letterOffset: UInt64) -> UInt64 {
        var spread = UInt64(value)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F
        let letters = ((spread &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101  // 1 in each byte above 9
        return spread &+ 0x3030_3030_3030_3030 &+ letters &* letterOffset
    }
}
