/// A UUID's canonical text, `8-4-4-4-12` hexadecimal digits (the form of an `apns-id`, A-SEND), read and written as
/// bytes: what `RandomUUID` writes, and what the simulated device's timeline and the in-memory store keep as 16
/// bytes instead of a 36-character string.
public enum CanonicalUUID {
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
    /// there are none); nil for any other text. One table lookup per digit, the checks gathered into one set of
    /// flags tested at the end (this runs for the `apns-id` of most pushes, in the device's timeline and the store).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64, uppercase: Bool?)? {
        let dash = UInt8(ascii: "-")
        guard bytes.count == 36, bytes[8] == dash, bytes[13] == dash, bytes[18] == dash, bytes[23] == dash else {
            return nil
        }
        return digitTable.withUnsafeBufferPointer { table in
            var high: UInt64 = 0
            var low: UInt64 = 0
            var flags: UInt8 = 0
            var digits = 0
            for position in 0..<36 where !isDash(at: position) {
                let entry = table[Int(bytes[position])]
                flags |= entry
                if digits < 16 { high = high << 4 | UInt64(entry & 0x0F) } else { low = low << 4 | UInt64(entry & 0x0F) }
                digits += 1
            }
            guard flags & notADigit == 0, flags & (lowerCaseLetter | upperCaseLetter) != lowerCaseLetter | upperCaseLetter
            else { return nil }
            let uppercase: Bool? = flags & upperCaseLetter != 0 ? true : flags & lowerCaseLetter != 0 ? false : nil
            return (high, low, uppercase)
        }
    }

    /// How many of `bytes`, from the first, are hexadecimal digits (`hexDigit`): one table lookup a byte.
    public static func leadingHexDigitCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        digitTable.withUnsafeBufferPointer { table in
            var count = 0
            while count < bytes.count, table[Int(bytes[count])] & notADigit == 0 { count += 1 }
            return count
        }
    }

    /// `hexDigit` of every byte as one byte: the digit's value, or-ed with `lowerCaseLetter` or `upperCaseLetter`
    /// for a letter; `notADigit` for any other byte.
    private static let digitTable: [UInt8] = (0...255).map { byte in
        guard let digit = hexDigit(UInt8(byte)) else { return notADigit }
        return digit.value | (digit.upper.map { $0 ? upperCaseLetter : lowerCaseLetter } ?? 0)
    }
    private static let lowerCaseLetter: UInt8 = 0x10
    private static let upperCaseLetter: UInt8 = 0x20
    private static let notADigit: UInt8 = 0x80

    /// The canonical text of 128 bits, e.g. `E621E1F8-C36C-495A-93FC-0C247A3E6E5F` (or lower case).
    public static func text(high: UInt64, low: UInt64, uppercase: Bool) -> String {
        // Digits computed, not read from a table inside a second closure (this runs for most pushes' apns-id).
        let letterBase = (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) - 10
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var out = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    buffer[out] = UInt8(ascii: "-")
                    out += 1
                }
                let word = index < 8 ? high : low
                let byte = UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (index % 8)))
                let (upper, lower) = (byte >> 4, byte & 0x0F)
                buffer[out] = upper < 10 ? UInt8(ascii: "0") + upper : letterBase + upper
                buffer[out + 1] = lower < 10 ? UInt8(ascii: "0") + lower : letterBase + lower
                out += 2
            }
            return out
        }
    }
}
