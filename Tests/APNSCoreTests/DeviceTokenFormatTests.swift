import APNSCore
import Testing

@Suite struct DeviceTokenFormatTests {
    /// 64, 108 and 160 digits are all real (A-REG); no length is special.
    @Test(arguments: [2, 64, 108, 160, 200, 202, 512])
    func anyEvenNumberOfHexDigitsIsWellFormed(_ digits: Int) {
        #expect(DeviceTokenFormat.isWellFormed(String(repeating: "aF", count: digits / 2)))
    }

    @Test(arguments: ["", "a", "abc", "zz", "ab cd", "abcdeg", "ab-cd", "0x12"])
    func malformedTokensAreNamedAsSuch(_ token: String) {
        #expect(DeviceTokenFormat.problem(with: token) != nil)
    }

    @Test func configuredMaximumIsEnforced() {
        let token = String(repeating: "ab", count: 101)
        #expect(DeviceTokenFormat.problem(with: token, maximumHexLength: 200) != nil)
        #expect(DeviceTokenFormat.problem(with: token, maximumHexLength: nil) == nil)
    }
}

/// The explanation for a token that is not hex digits names the first scalar that is not one, quoted as Swift's
/// `debugDescription` quotes it: the same text whether it comes from the per-byte table (an ASCII character after
/// ASCII hex digits) or is built (anything else).
@Suite struct DeviceTokenNonHexExplanationTests {
    static func built(_ bad: Unicode.Scalar) -> String {
        "the device token must be hexadecimal digits; found \(String(bad).debugDescription)"
    }

    @Test func everyASCIICharacterIsQuotedAsBuilt() {
        for value in UInt8(0)..<0x80 {
            let bad = Unicode.Scalar(value)
            guard !bad.properties.isASCIIHexDigit else { continue }
            for token in ["\(bad)", "ab\(bad)", "0123\(bad)zz", "ab\(bad)é"] {
                #expect(DeviceTokenFormat.problem(with: token) == Self.built(bad), "\(value)")
            }
        }
    }

    @Test(arguments: [
        ("é", "é"), ("abé", "é"), ("ab\u{301}", "\u{301}"), ("😀ab", "😀"), ("ab\u{0}", "\u{0}"),
        ("abcd\u{7F}", "\u{7F}"),
    ] as [(String, Unicode.Scalar)])
    func theFirstNonHexScalarIsNamed(token: String, bad: Unicode.Scalar) {
        #expect(DeviceTokenFormat.problem(with: token) == Self.built(bad))
    }
}

/// The exact answer for every shape of token: empty, odd or even counts of digits, over a configured maximum, a
/// non-hex ASCII character or a non-ASCII scalar first, in the middle or after an odd count of digits.
@Suite struct DeviceTokenFormatAnswerTests {
    /// The message naming `bad`, quoted as Swift's `debugDescription` quotes it.
    static func nonHex(_ bad: String) -> String {
        "the device token must be hexadecimal digits; found " + bad.debugDescription
    }

    @Test(arguments: [
        ("", nil, "the device token is empty"),
        ("ab", nil, nil),
        ("AbCdEf", 6, nil),
        ("abc", nil, "the device token has 3 hex digits; a token is whole bytes, so an even count"),
        ("abcdef", 4, "the device token has 6 hex digits; this mock is configured for at most 4"),
        ("abcde", 4, "the device token has 5 hex digits; a token is whole bytes, so an even count"),
        ("abg", nil, nonHex("g")),
        ("g", 1, nonHex("g")),
        ("abcé", nil, nonHex("é")),
        ("é", nil, nonHex("é")),
        ("ab😀cd", nil, nonHex("😀")),
        ("abc😀", 2, nonHex("😀")),
        ("ab\u{301}", nil, nonHex("\u{301}")),
        ("ab é", nil, nonHex(" ")),
        ("abé ", nil, nonHex("é")),
    ] as [(String, Int?, String?)])
    func answerForEachShape(token: String, maximum: Int?, answer: String?) {
        #expect(DeviceTokenFormat.problem(with: token, maximumHexLength: maximum) == answer, "\(token.debugDescription)")
    }
}
