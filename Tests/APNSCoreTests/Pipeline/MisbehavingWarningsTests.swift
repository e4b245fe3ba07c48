import APNSCore
import Testing

/// The warnings that mark an accepted push "device will misbehave" are real codes, spelt as the rules and the
/// simulated device spell them (the set is strings because the Live Activity codes live above APNSCore).
@Suite struct MisbehavingWarningsTests {
    @Test func everyCodeIsInTheWarningCatalogue() {
        for code in MisbehavingWarnings.codes { #expect(WarningCodeCatalogue.contains(code), "\(code) is no warning code") }
    }

    /// The two the issue names: a millisecond timestamp and a Unix-seconds Date (decoded as 2057).
    @Test func theActivityBreakingOnesAreIn() {
        #expect(MisbehavingWarnings.codes.contains(LiveActivityWarningCode.timestampMilliseconds.rawValue))
        #expect(MisbehavingWarnings.codes.contains(LiveActivityWarningCode.contentStateUnixDate.rawValue))
        #expect(MisbehavingWarnings.codes.contains(PushWarningCode.apsTimestampMilliseconds.rawValue))
        // Advice that loses nothing is not.
        #expect(!MisbehavingWarnings.codes.contains(LiveActivityWarningCode.contentStateUnknownKey.rawValue))
        #expect(!MisbehavingWarnings.codes.contains(PushWarningCode.pushTypeMissing.rawValue))
    }
}
