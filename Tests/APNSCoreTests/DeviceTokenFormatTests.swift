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
