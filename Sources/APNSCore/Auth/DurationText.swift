/// Durations as people read them in explanations: `45 s`, `12 min 5 s`, `2 h 3 min`.
enum DurationText {
    static func describe(seconds: Double) -> String {
        let total = Int64(saturating: seconds.magnitude.rounded(.down))
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        let rest = total % 60
        if hours > 0 { return minutes > 0 ? "\(hours) h \(minutes) min" : "\(hours) h" }
        if minutes > 0 { return rest > 0 ? "\(minutes) min \(rest) s" : "\(minutes) min" }
        return "\(rest) s"
    }
}
