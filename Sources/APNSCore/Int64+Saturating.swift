extension Int64 {
    /// `value` rounded toward zero, clamped to Int64's range (NaN becomes 0). Numbers from payloads and tokens are
    /// untrusted (`"iat": 1e300`, a millisecond date read as seconds); `Int64(_: Double)` would trap on them.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_808.0 {  // 2^63, the first Double above Int64.max
            self = .max
        } else if value <= -9_223_372_036_854_775_808 {
            self = .min
        } else {
            self = Int64(value)
        }
    }
}
