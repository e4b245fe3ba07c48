/// The shape of a device token in `:path`: hexadecimal bytes of any length.
///
/// Source: A-SEND (":path … hexadecimal bytes", "Don't make assumptions about device token size"),
/// A-REG (64, 108 and 160 hex digits all observed). Choice (docs/rules.md): at least one byte (two
/// hex digits), an even number of digits because each byte is two digits, either letter case.
public enum DeviceTokenFormat {
    /// Why `token` is not a well-formed device token, or nil when it is.
    public static func problem(with token: String, maximumHexLength: Int? = nil) -> String? {
        if token.isEmpty { return "the device token is empty" }
        if let count = asciiHexDigitCount(token) {  // the usual token: one pass over its bytes, no scalar decoding
            if count % 2 != 0 {
                return "the device token has \(count) hex digits; a token is whole bytes, so an even count"
            }
            if let maximum = maximumHexLength, count > maximum {
                return "the device token has \(count) hex digits; this mock is configured for at most \(maximum)"
            }
            return nil
        }
        if let bad = token.unicodeScalars.first(where: { !isHexDigit($0) }) {
            return "the device token must be hexadecimal digits; found \(String(bad).debugDescription)"
        }
        let digits = token.unicodeScalars.count
        if digits % 2 != 0 {
            return "the device token has \(digits) hex digits; a token is whole bytes, so an even count"
        }
        if let maximum = maximumHexLength, digits > maximum {
            return "the device token has \(digits) hex digits; this mock is configured for at most \(maximum)"
        }
        return nil
    }

    public static func isWellFormed(_ token: String) -> Bool {
        problem(with: token) == nil
    }

    /// The number of digits when every byte of `token` is an ASCII hex digit (then bytes, scalars and digits are
    /// one and the same), else nil.
    private static func asciiHexDigitCount(_ token: String) -> Int? {
        var token = token
        return token.withUTF8 { bytes in  // contiguous bytes: no per-byte index arithmetic of String.UTF8View
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                     UInt8(ascii: "A")...UInt8(ascii: "F"):
                    continue
                default:
                    return nil
                }
            }
            return bytes.count
        }
    }

    private static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "0"..."9", "a"..."f", "A"..."F": return true
        default: return false
        }
    }
}
