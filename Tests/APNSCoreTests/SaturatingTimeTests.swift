import APNSCore
import Testing

/// Times and numbers from payloads and tokens are untrusted: converting them must never trap (a trap stops the
/// whole server). Found when a millisecond `aps.timestamp`, read as seconds, overflowed nanoseconds in Int64.
@Suite struct SaturatingTimeTests {
    @Test(arguments: [1e300, -1e300, Double.infinity, -Double.infinity, 1.7e12 * 1e9, Double.nan])
    func hugeSecondsSaturateInsteadOfTrapping(seconds: Double) {
        let time = Timestamp(secondsSinceEpoch: seconds)
        if seconds.isNaN {
            #expect(time.nanosecondsSinceEpoch == 0)
        } else {
            #expect(time.nanosecondsSinceEpoch == (seconds > 0 ? .max : .min))
        }
        _ = time.adding(seconds: seconds)
        _ = Timestamp(nanosecondsSinceEpoch: .max).adding(seconds: 3600)
    }

    @Test func ordinaryTimesAreExact() {
        #expect(Timestamp(secondsSinceEpoch: 1_767_225_600).millisecondsSinceEpoch == 1_767_225_600_000)
        #expect(Timestamp(secondsSinceEpoch: 1_767_225_600).adding(seconds: 1.5).millisecondsSinceEpoch == 1_767_225_601_500)
        #expect(Int64(saturating: 42.9) == 42)
        #expect(Int64(saturating: 1e19) == .max)
        #expect(Int64(saturating: -1e19) == .min)
    }
}
