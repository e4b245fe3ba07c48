import Testing
@testable import APNSConformance

/// Every rule of the catalogue is shown holding (a strict `pass`, not "not applicable") on a history that
/// exercises it, failing on one that loses, rejects or drops a push, and warning on one that only departs from
/// Apple's advice where the rule can warn (docs/conformance.md, the grading principle); the coverage test fails
/// when a rule is added without them.
@Suite struct RuleCoverageTests {
    typealias H = HistoryBuilder

    struct Example: Sendable, CustomStringConvertible {
        let rule: ConformanceRule
        let expected: Verdict
        var context = RunContext()
        let build: @Sendable (inout HistoryBuilder) -> Void
        var description: String { "\(rule.id) \(expected)" }
    }

    static let gone = #"{"fault":{"reason":"Unregistered"}}"#
    static let goaway = #"{"fault":{"goaway":{"reason":"Shutdown","after":"answer"}}}"#

    /// Histories on which each rule holds.
    static let holding: [Example] = [
        Example(rule: .acceptedStatus, expected: .pass) { h in h.add(); h.add() },
        Example(rule: .acceptedWarnings, expected: .pass) { h in h.add() },
        Example(rule: .acceptedDuplicates, expected: .pass) { h in
            h.add(payload: #"{"aps":{"alert":"1"}}"#); h.add(payload: #"{"aps":{"alert":"2"}}"#)
            // A collapsed notification replaces the previous one on the device.
            h.add(payload: #"{"aps":{"alert":"3"}}"#, headers: [("apns-collapse-id", "score")])
            h.add(payload: #"{"aps":{"alert":"3"}}"#, headers: [("apns-collapse-id", "score")])
        },
        Example(rule: .deviceApplied, expected: .pass) { h in h.add(payload: H.start, pushType: "liveactivity", outcome: "applied") },
        Example(rule: .deviceTimestamps, expected: .pass) { h in
            h.add(payload: H.start, pushType: "liveactivity", outcome: "applied")
            h.add(payload: H.liveActivity(event: "update", timestamp: "1767225610"), pushType: "liveactivity", outcome: "applied")
        },
        Example(rule: .deviceAfterEnd, expected: .pass) { h in
            h.add(payload: H.liveActivity(event: "end", timestamp: "1767225620"), pushType: "liveactivity", outcome: "applied")
            h.add(token: H.tokenB, payload: H.start, pushType: "liveactivity", outcome: "applied")
        },
        Example(rule: .deviceStart, expected: .pass) { h in h.add(payload: H.start, pushType: "liveactivity", outcome: "applied") },
        Example(rule: .deviceBudget, expected: .pass) { h in
            h.add(payload: H.liveActivity(event: "update", timestamp: "1767225610"), pushType: "liveactivity", outcome: "applied")
        },
        Example(rule: .authES256, expected: .pass) { h in h.add() },
        Example(rule: .authReuse, expected: .pass) { h in h.add(); h.add(); h.add(connection: 2) },
        Example(rule: .authRefresh, expected: .pass) { h in h.add(); h.add() },
        Example(rule: .authExpiredRetry, expected: .pass) { h in
            h.add(status: 403, reason: "ExpiredProviderToken", injected: #"{"fault":{"reason":"ExpiredProviderToken"}}"#)
            h.add(fingerprint: "f2")
        },
        Example(rule: .connectionReuse, expected: .pass) { h in h.add(); h.add(); h.add(); h.add() },
        Example(rule: .connectionStreams, expected: .pass, context: RunContext(maxConcurrentStreams: 2)) { h in
            h.add(latencyMicros: 5_000_000); h.add(after: 1_000, latencyMicros: 5_000_000)
        },
        Example(rule: .connectionPipelining, expected: .pass) { h in
            for _ in 0..<12 { h.add(after: 1_000_000, latencyMicros: 50_000) }
        },
        Example(rule: .errorTokenGone, expected: .pass) { h in
            h.add(token: H.tokenB, status: 410, reason: "Unregistered", injected: gone)
            h.add(); h.add()
        },
        Example(rule: .errorPermanent, expected: .pass) { h in
            h.add(status: 413, reason: "PayloadTooLarge", injected: #"{"fault":{"reason":"PayloadTooLarge"}}"#)
            h.add(payload: #"{"aps":{"alert":"smaller"}}"#)
        },
        Example(rule: .errorTransient, expected: .pass) { h in
            h.add(status: 503, reason: "ServiceUnavailable", injected: #"{"fault":{"reason":"ServiceUnavailable"}}"#)
            h.add(after: 500_000_000)
        },
        Example(rule: .errorGoaway, expected: .pass, context: RunContext(expectedPushes: 2)) { h in
            h.add(injected: goaway)
            h.add(payload: #"{"aps":{"alert":"2"}}"#, connection: 2)
        },
        Example(rule: .errorUnknownReason, expected: .pass, context: RunContext(commandExitStatus: 0)) { h in
            h.add(status: 400, reason: "BrandNewReason", injected: #"{"fault":{"reason":"BrandNewReason"}}"#)
            h.add(payload: #"{"aps":{"alert":"next"}}"#)
        },
    ]

    /// Broken histories beyond `SenderGraderTests.broken` (rules whose breaking needs its own context).
    static let breaking: [Example] = [
        Example(rule: .connectionPipelining, expected: .warn) { h in
            for _ in 0..<12 { h.add(after: 60_000_000, latencyMicros: 50_000) }
        },
        Example(rule: .connectionPipelining, expected: .warn) { h in
            // Instant decisions but a 20 ms injected delay: the sender still waited for each answer.
            for _ in 0..<12 { h.add(after: 30_000_000, latencyMicros: 100, injected: #"{"fault":{"delayMs":20}}"#) }
        },
        Example(rule: .errorGoaway, expected: .fail, context: RunContext(commandExitStatus: 1)) { h in
            h.add(injected: goaway)
        },
        Example(rule: .errorGoaway, expected: .fail, context: RunContext(expectedPushes: 3)) { h in
            h.add(injected: goaway)
            h.add(payload: #"{"aps":{"alert":"2"}}"#, connection: 2)
        },
        Example(rule: .errorUnknownReason, expected: .fail, context: RunContext(commandExitStatus: 1)) { h in
            h.add(status: 400, reason: "BrandNewReason", injected: #"{"fault":{"reason":"BrandNewReason"}}"#)
        },
        Example(rule: .errorTokenGone, expected: .fail) { h in
            h.add(status: 410, reason: "ExpiredToken", injected: #"{"fault":{"reason":"ExpiredToken"}}"#)
            h.add(payload: #"{"aps":{"alert":"again"}}"#)
        },
        Example(rule: .acceptedWarnings, expected: .fail) { h in
            h.add(warnings: [.init(code: "la-content-state-unix-date", message: "content-state.eta decodes as 2057")])
        },
        Example(rule: .deviceTimestamps, expected: .warn) { h in
            h.add(payload: H.liveActivity(event: "update", timestamp: "1767225610"), pushType: "liveactivity", outcome: "applied")
            h.add(payload: H.liveActivity(event: "update", timestamp: "1767225610", extra: #","alert":"x""#), pushType: "liveactivity", outcome: "applied")
        },
        Example(rule: .connectionReuse, expected: .warn) { h in
            for _ in 0..<6 { h.add(payload: #"{"aps":{"alert":"shared"}}"#) }
            h.add(connection: 21); h.add(connection: 22)
        },
    ]

    /// Rules that can warn (a deviation from Apple's advice that loses nothing), and the rule that only warns.
    static let canWarn: Set<String> = [
        "accepted.warnings", "device.timestamps", "auth.es256", "auth.reuse", "connection.reuse", "connection.pipelining",
        "error.transient",
    ]
    static let warnsOnly: Set<String> = ["connection.pipelining"]

    @Test(arguments: holding)
    func theRuleHolds(_ example: Example) {
        var h = H()
        example.build(&h)
        let result = h.grade(example.rule, context: example.context)
        #expect(result.verdict == .pass, "\(example.rule.id): \(result.summary) \(result.findings)")
    }

    @Test(arguments: breaking)
    func theRuleBreaks(_ example: Example) {
        var h = H()
        example.build(&h)
        let result = h.grade(example.rule, context: example.context)
        #expect(result.verdict == example.expected, "\(example.rule.id): \(result.summary) \(result.findings)")
        #expect(result.findings.contains { !$0.message.isEmpty }, "a broken rule says why")
    }

    @Test func everyRuleIsShownHoldingWarningAndFailing() {
        let holds = Set(Self.holding.map(\.rule.id))
        let broken = Self.breaking.map { ($0.rule.id, $0.expected) } + SenderGraderTests.broken.map { ($0.rule.id, $0.expected) }
        let fails = Set(broken.filter { $0.1 == .fail }.map(\.0))
        let warns = Set(broken.filter { $0.1 == .warn }.map(\.0))
        for rule in ConformanceRule.all {
            #expect(holds.contains(rule.id), "\(rule.id) has no history on which it passes")
            if !Self.warnsOnly.contains(rule.id) {
                #expect(fails.contains(rule.id), "\(rule.id) has no history on which it fails")
            }
            #expect(warns.contains(rule.id) == Self.canWarn.contains(rule.id), "\(rule.id): a warning history exactly when the rule can warn")
        }
    }

    @Test func aDelayFaultCountsAsTimeInFlight() {
        var h = H()
        // Twelve requests 1 ms apart, each decided at once but answered 20 ms later: several were in flight.
        for _ in 0..<12 { h.add(after: 1_000_000, latencyMicros: 100, injected: #"{"fault":{"delayMs":20}}"#) }
        #expect(h.grade(.connectionPipelining).verdict == .pass)
        #expect(h.requests[0].waitedMicroseconds == 10_100, "half the delay counts: the timer may fire early")
        var range = H()
        range.add(injected: #"{"fault":{"delayMs":{"max":90,"min":30}}}"#)
        #expect(range.requests[0].injectedDelayMicroseconds == 30_000, "a range counts its minimum")
    }
}

@Suite struct ReasonPolicyCoverageTests {
    /// Reasons of Apple's tables that a sender may see; none is "unknown" to `error.unknown-reason`.
    @Test(arguments: ["BadEnvironmentKeyIdInToken", "BadEnvironmentKeyInToken", "MissingPushType", "TopicMismatch",
                      "BadChannelId", "ChannelNotRegistered", "Unregistered", "TooManyRequests"])
    func documentedReasonsAreKnown(reason: String) {
        #expect(ReasonPolicy.isKnown(reason))
    }
}
