// Fixture: conformance declared in an extension, enums without raw values (with and without associated
// values), an Int-raw enum with implicit raw values, `var a, b: Int`, and types inferred from default values.
import ActivityKit
import Foundation

struct MatchAttributes {
    var homeTeam: String
    var awayTeam: String
}

extension MatchAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var homeScore, awayScore: Int
        var period: Period
        var severity: Severity
        var minute = 0
        var possession = 0.5
        var headline = "Kick-off"
        var isLive = true
        var updatedAt = Date()
        var scorers = ["nobody"]
        var kickoff = Date.now
        var link = URL(string: "https://example.com/match")
    }

    enum Period: Codable, Hashable {
        case first
        case second
        case overtime(minutes: Int)
        case penalties(Int, Int)
    }

    enum Severity: Int, Codable, Hashable {
        case low = 1
        case medium
        case high = 10
        case critical
    }
}
