
/// Renders instants as `2057-01-22T11:33:47Z` without a calendar object, so messages can show far-off years
/// (a millisecond value read as seconds lands in year 55 000) exactly.
enum UTCDateText {
    /// Seconds between 1970-01-01 and 2001-01-01, the offset between Unix time and `Date`'s reference date.
    /// Source: A-JSONDEC.
    static let referenceDateOffset: Double = 978_307_200

    static func format(unixSeconds: Double) -> String {
        guard unixSeconds.isFinite, abs(unixSeconds) < 1e15 else { return "an unrepresentable date" }
        let whole = Int64(saturating: unixSeconds.rounded(.down))
        let days = whole.floorDivided(by: 86_400)
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = CivilDate.from(daysSinceUnixEpoch: days)
        return "\(year)-\(twoDigits(month))-\(twoDigits(day))T\(twoDigits(secondOfDay / 3600)):"
            + "\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60))Z"
    }

    static func format(_ timestamp: Timestamp) -> String {
        format(unixSeconds: timestamp.secondsSinceEpoch)
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
