import Testing
@testable import APNSConformance

/// Each rule, on a well-behaved history (holds) and on a deliberately broken one (fails, naming the request).
@Suite struct SenderGraderTests {
    typealias H = HistoryBuilder

    static func wellBehaved() -> HistoryBuilder {
        var h = H()
        h.add(payload: H.start, pushType: "liveactivity", outcome: "applied")
        h.add(payload: H.liveActivity(event: "update", timestamp: "1767225610"), pushType: "liveactivity", outcome: "applied")
        h.add(payload: H.liveActivity(event: "end", timestamp: "1767225620"), pushType: "liveactivity", outcome: "applied")
        h.add(token: H.tokenB)
        return h
    }

    @Test(arguments: ConformanceRule.all)
    func aWellBehavedSenderBreaksNoRule(rule: ConformanceRule) {
        let result = Self.wellBehaved().grade(rule)
        #expect(result.verdict == .pass || result.verdict == .notApplicable, "\(rule.id): \(result.findings)")
    }

    struct Broken: Sendable, CustomStringConvertible {
        let rule: ConformanceRule
        let expected: Verdict
        var context = RunContext()
        let build: @Sendable (inout HistoryBuilder) -> Int64
        var description: String { rule.id }
    }

    static let broken: [Broken] = [
        Broken(rule: .acceptedStatus, expected: .fail) { h in h.add(status: 400, reason: "BadDeviceToken") },
        Broken(rule: .acceptedWarnings, expected: .warn) { h in h.add(warnings: [.init(code: "jwt-iat-string", message: "iat is a string")]) },
        Broken(rule: .deviceApplied, expected: .fail) { h in
            h.add(payload: H.liveActivity(event: "update", timestamp: "1767225610"), pushType: "liveactivity", outcome: "droppedUndecodableContentState")
        },
        Broken(rule: .deviceTimestamps, expected: .fail) { h in
            h.add(payload: H.liveActivity(event: "update", timestamp: "1767225610000"), pushType: "liveactivity", outcome: "applied")
        },
        Broken(rule: .deviceTimestamps, expected: .fail) { h in
            h.add(payload: H.liveActivity(event: "update", timestamp: "1767225620"), pushType: "liveactivity", outcome: "applied")
            return h.add(payload: H.liveActivity(event: "update", timestamp: "1767225610"), pushType: "liveactivity", outcome: "ignoredOlderTimestamp")
        },
        Broken(rule: .deviceAfterEnd, expected: .fail) { h in
            h.add(payload: H.liveActivity(event: "end", timestamp: "1767225620"), pushType: "liveactivity", outcome: "applied")
            return h.add(payload: H.liveActivity(event: "update", timestamp: "1767225630"), pushType: "liveactivity", outcome: "ignoredAlreadyEnded")
        },
        Broken(rule: .deviceStart, expected: .fail) { h in
            h.add(payload: H.liveActivity(event: "start", timestamp: "1767225600", extra: #","attributes-type":"A","attributes":{}"#), pushType: "liveactivity")
        },
        Broken(rule: .deviceBudget, expected: .fail) { h in
            h.add(payload: H.liveActivity(event: "update", timestamp: "1767225610"), pushType: "liveactivity", outcome: "throttled")
        },
        Broken(rule: .authES256, expected: .warn) { h in h.add(fingerprint: "s", claims: #"{"iss":"TEAM123456","iat":"1767225600"}"#) },
        Broken(rule: .authES256, expected: .warn) { h in h.add(fingerprint: "d", claims: #"{"iss":"TEAM123456","iat":1767225600.25}"#) },
        Broken(rule: .authES256, expected: .fail) { h in h.add(fingerprint: "h", header: #"{"alg":"HS256","kid":"ABC123DEFG"}"#) },
        Broken(rule: .authReuse, expected: .fail) { h in
            h.add(fingerprint: "x1"); h.add(fingerprint: "x2"); return h.add(fingerprint: "x3")
        },
        Broken(rule: .authReuse, expected: .warn) { h in
            // A new token on a new connection: APNs accepts it; Apple advises reuse.
            h.add(fingerprint: "f1"); h.add(fingerprint: "f1"); return h.add(connection: 2, fingerprint: "f2")
        },
        Broken(rule: .authReuse, expected: .fail) { h in
            // A new token on the same connection within 20 minutes: 429 TooManyProviderTokenUpdates.
            h.add(fingerprint: "f1"); return h.add(fingerprint: "f2")
        },
        Broken(rule: .authRefresh, expected: .fail) { h in h.add(claims: H.claims(String(H.base / 1_000_000_000 - 3700))) },
        Broken(rule: .authExpiredRetry, expected: .fail) { h in
            let first = h.add(status: 403, reason: "ExpiredProviderToken", injected: #"{"fault":{"reason":"ExpiredProviderToken"}}"#)
            h.add(fingerprint: "f1")
            return first
        },
        Broken(rule: .connectionReuse, expected: .fail) { h in
            h.add(connection: 11); h.add(connection: 12); h.add(connection: 13); return h.add(connection: 14)
        },
        Broken(rule: .connectionStreams, expected: .fail, context: RunContext(maxConcurrentStreams: 1)) { h in
            h.add(latencyMicros: 5_000_000); return h.add(after: 1_000, latencyMicros: 5_000_000)
        },
        Broken(rule: .errorTokenGone, expected: .fail) { h in
            h.add(token: H.tokenB, status: 410, reason: "Unregistered", injected: #"{"fault":{"reason":"Unregistered"}}"#)
            return h.add(token: H.tokenB, payload: #"{"aps":{"alert":"again"}}"#)
        },
        Broken(rule: .errorPermanent, expected: .fail) { h in
            h.add(status: 413, reason: "PayloadTooLarge", injected: #"{"fault":{"reason":"PayloadTooLarge"}}"#)
            return h.add()
        },
        Broken(rule: .errorTransient, expected: .warn) { h in
            // Retried 2 ms after the 503: no back-off, but the push got through.
            h.add(status: 503, reason: "ServiceUnavailable", injected: #"{"fault":{"reason":"ServiceUnavailable"}}"#)
            return h.add(after: 2_000_000)
        },
        Broken(rule: .errorTransient, expected: .fail) { h in
            // Not retried: the push is lost.
            h.add(status: 429, reason: "TooManyRequests", injected: #"{"fault":{"reason":"TooManyRequests"}}"#)
        },
        Broken(rule: .errorGoaway, expected: .fail) { h in
            // GOAWAY before the answer: the push was not processed and never sent again.
            h.add(payload: #"{"aps":{"alert":"unanswered"}}"#, status: 0, injected: #"{"goaway":{"after":"before","reason":"Shutdown"}}"#)
            return h.add(payload: #"{"aps":{"alert":"2"}}"#, connection: 2)
        },
        Broken(rule: .acceptedDuplicates, expected: .fail) { h in
            h.add(payload: #"{"aps":{"alert":"twice"}}"#)
            return h.add(payload: #"{"aps":{"alert":"twice"}}"#, connection: 2)
        },
    ]

    @Test(arguments: broken)
    func aBrokenHistoryBreaksTheRule(_ example: Broken) {
        var h = Self.wellBehaved()
        _ = example.build(&h)
        let result = h.grade(example.rule, context: example.context)
        #expect(result.verdict == example.expected, "\(example.rule.id): \(result.findings)")
        #expect(result.findings.contains { !$0.message.isEmpty }, "a failure says why")
    }

    @Test(arguments: [ConformanceRule.connectionPipelining, .connectionStreams, .connectionReuse])
    func everyRuleInTheCatalogueHasAGrader(rule: ConformanceRule) {
        #expect(Self.wellBehaved().grade(rule).summary != "no grader")
    }

    @Test func aSequentialSenderIsWarnedOnlyWhenAnswersAreSlowEnoughToTell() {
        var slow = H()
        for _ in 0..<12 { slow.add(after: 60_000_000, latencyMicros: 50_000) }
        #expect(slow.grade(.connectionPipelining).verdict == .warn)
        var pipelined = H()
        for _ in 0..<12 { pipelined.add(after: 1_000_000, latencyMicros: 50_000) }
        #expect(pipelined.grade(.connectionPipelining).verdict == .pass)
        var fast = H()
        for _ in 0..<12 { fast.add() }
        #expect(fast.grade(.connectionPipelining).verdict == .notApplicable)
    }

    @Test func aRetryAfterBackOffAndAFreshTokenAfterExpiryPass() {
        var h = H()
        h.add(status: 503, reason: "ServiceUnavailable", injected: #"{"fault":{}}"#)
        h.add(after: 500_000_000)
        h.add(token: H.tokenB, status: 403, reason: "ExpiredProviderToken", injected: #"{"fault":{}}"#)
        h.add(token: H.tokenB, fingerprint: "f2")
        #expect(h.grade(.errorTransient).verdict == .pass)
        #expect(h.grade(.authExpiredRetry).verdict == .pass)
        #expect(h.grade(.authReuse).verdict == .pass, "a new token after ExpiredProviderToken is not churn")
        #expect(h.grade(.acceptedStatus).verdict == .pass, "injected answers are not the sender's fault")
    }

    @Test func aGoawayFollowedByANewConnectionPasses() {
        var h = H()
        h.add(injected: #"{"fault":{"goaway":{"reason":"Shutdown"}}}"#)
        h.add(payload: #"{"aps":{"alert":"next"}}"#, connection: 2)
        #expect(h.grade(.errorGoaway).verdict == .pass)
        #expect(h.grade(.errorGoaway, context: RunContext(expectedPushes: 3)).verdict == .fail, "a push GOAWAY left unanswered was not sent")
    }

    @Test func anUnknownReasonThatEndsTheSenderFails() {
        var h = H()
        h.add(status: 400, reason: "SomethingNew", injected: #"{"fault":{}}"#)
        #expect(h.grade(.errorUnknownReason, context: RunContext(commandExitStatus: 1)).verdict == .fail)
        #expect(h.grade(.errorUnknownReason, context: RunContext(commandExitStatus: 0)).verdict == .pass)
    }

    @Test func onlyAndSkipSelectByPrefix() {
        let selection = RuleSelection(only: ["auth", "error.goaway"], skip: ["auth.refresh"])
        let chosen = ConformanceRule.all.map(\.id).filter(selection.includes)
        #expect(chosen == ["auth.es256", "auth.reuse", "auth.expired-retry", "error.goaway"])
    }

    @Test(arguments: [
        (#"{"iat":1767225600}"#, IssuedAtForm.integer), (#"{"iss":"T","iat":"1767225600"}"#, .string),
        (#"{"iat":1767225600.5,"iss":"T"}"#, .float), (#"{"iss":"T"}"#, .missing),
    ])
    func issuedAtFormIsReadFromTheRawClaims(claims: String, form: IssuedAtForm) {
        #expect(ClaimText.issuedAtForm(claims) == form)
    }
}

@Suite struct EmptyRunTests {
    @Test func aSenderThatSentNothingFails() {
        let results = SenderGrader().grade([])
        #expect(results.first { $0.rule == .acceptedStatus }?.verdict == .fail)
        #expect(results.filter { $0.rule != .acceptedStatus }.allSatisfy { $0.verdict == .notApplicable })
    }
}
