/// The shape of a device token in `:path`: hexadecimal bytes of any length.
///
/// Source: A-SEND (":path … hexadecimal bytes", "Don't make assumptions about device token size"),
/// A-REG (64, 108 and 160 hex digits all observed). Choice (docs/rules.md): at least one byte (two
/// hex digits), an even number of digits because each byte is two digits, either letter case.
public enum DeviceTokenFormat {
    /// Why `token` is not a well-formed device token, or nil when it is.
    public static func problem(with token: String, maximumHexLength: Int? = nil) -> String? {
        problem(with: token, scan: leadingASCIIHexDigits(token), maximumHexLength: maximumHexLength)
    }

    /// `problem(with:maximumHexLength:)` for a token already scanned (`leadingASCIIHexDigits`).
    public static func problem(
        with token: String, scan: (count: Int, stop: UInt8?), maximumHexLength: Int? = nil
    ) -> String? {
        if token.isEmpty { return "the device token is empty" }
        if scan.stop == nil {  // the usual token
            let count = scan.count
            if count % 2 != 0 {
                return "the device token has \(count) hex digits; a token is whole bytes, so an even count"
            }
            if let maximum = maximumHexLength, count > maximum {
                return "the device token has \(count) hex digits; this mock is configured for at most \(maximum)"
            }
            return nil
        }
        if let byte = scan.stop, byte < 0x80 {
            // Every byte before it is an ASCII hex digit, so this byte is the first scalar that is not one: the
            // message is the one built below, made once per byte value (a rejected push builds no text).
            return nonHexMessages[Int(byte)]
        }
        // The byte at `scan.count` starts the first scalar that is not an ASCII hex digit (a non-ASCII one).
        return nonHexMessage(token.unicodeScalars[token.utf8.index(token.utf8.startIndex, offsetBy: scan.count)])
    }

    public static func isWellFormed(_ token: String) -> Bool {
        problem(with: token) == nil
    }

    /// How many bytes of `token` are ASCII hex digits before the first that is not one (`stop`, nil when every
    /// byte is one: then bytes, scalars and digits are one and the same). One pass over the bytes, no scalar
    /// decoding.
    public static func leadingASCIIHexDigits(_ token: String) -> (count: Int, stop: UInt8?) {
        let bytes = token.utf8.span  // contiguous bytes: no per-byte index arithmetic of String.UTF8View
        let count = CanonicalUUID.leadingHexDigitCount(bytes)
        return (count, count < bytes.count ? bytes[count] : nil)
    }

    /// The message for a token whose first non-hex-digit scalar is the ASCII character with this value (entries of
    /// hex digits are never read).
    private static let nonHexMessages: [String] = (0..<0x80).map { nonHexMessage(Unicode.Scalar(UInt8($0))) }

    private static func nonHexMessage(_ bad: Unicode.Scalar) -> String {
        "the device token must be hexadecimal digits; found \(String(bad).debugDescription)"
    }
}
