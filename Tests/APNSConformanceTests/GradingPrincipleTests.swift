import Foundation
import Testing
@testable import APNSConformance

/// The cases of issue 31 that graded senders wrongly, each on the history that showed it: FAIL when a push is
/// rejected, lost or dropped; WARN for advice that loses nothing; a rule judges what the sender could have known.
@Suite struct GradingPrincipleTests {
    typealias H = HistoryBuilder
    static let delay = #"{"delayMs":20,"probability":1}"#

    @Test func aDelayedRejectionFailsAcceptedStatus() {
        var h = H()
        h.add(status: 400, reason: "DeviceTokenNotForTopic", injected: Self.delay, rulesAnswer: "400 DeviceTokenNotForTopic")
        let result = h.grade(.acceptedStatus)
        #expect(result.verdict == .fail, "\(result.summary)")
        #expect(result.summary.hasPrefix("0 of 1 request accepted"))
        var without = H()  // a history without the rules' answer: judged by the fault's kind
        without.add(status: 400, reason: "DeviceTokenNotForTopic", injected: Self.delay)
        #expect(without.grade(.acceptedStatus).verdict == .fail)
    }

    @Test func onlyAnAnswerTheFaultChangedIsLeftOut() {
        var h = H()
        h.add(status: 410, reason: "Unregistered", injected: #"{"reason":"Unregistered","status":410}"#, rulesAnswer: "200")
        h.add(payload: #"{"aps":{"alert":"2"}}"#, injected: #"{"goaway":{"reason":"Shutdown","after":"answer"},"every":2}"#, rulesAnswer: "200")
        let result = h.grade(.acceptedStatus)
        #expect(result.verdict == .pass)
        #expect(result.summary == "1 of 1 request accepted (1 answer decided by an injected fault not counted)")
    }

    @Test(arguments: [
        ("Pushy: one token per connection", [(1, "p1"), (1, "p1"), (2, "p2"), (2, "p2"), (3, "p3")]),
        ("aioapns: a second connection when two pushes are due", [(1, "a1"), (2, "a2"), (1, "a1"), (2, "a2")]),
        ("a reconnect after GOAWAY with a fresh token", [(1, "g1"), (1, "g1"), (2, "g2")]),
    ])
    func aTokenPerConnectionWarnsAndNeverFails(_ name: String, _ uses: [(Int64, String)]) {
        var h = H()
        for (index, use) in uses.enumerated() {
            h.add(payload: #"{"aps":{"alert":"\#(index)"}}"#, connection: use.0, fingerprint: use.1)
        }
        let result = h.grade(.authReuse)
        #expect(result.verdict == .warn, "\(name): \(result.findings)")
    }

    @Test func aNewTokenOnTheSameConnectionWithinTwentyMinutesFails() {
        var h = H()
        h.add(fingerprint: "t1")
        h.add(payload: #"{"aps":{"alert":"2"}}"#, fingerprint: "t2")
        #expect(h.grade(.authReuse).verdict == .fail)
        var later = H()  // 21 minutes later, on the same connection: Apple's schedule
        later.add(fingerprint: "t1")
        later.add(payload: #"{"aps":{"alert":"2"}}"#, after: 21 * 60 * 1_000_000_000, fingerprint: "t2")
        #expect(later.grade(.authReuse).verdict == .pass)
    }

    @Test func aRequestOnTheClosedConnectionIsNotHeldAgainstTheSender() {
        var h = H()
        h.add(injected: #"{"goaway":{"reason":"Shutdown","after":"answer"},"every":2}"#, rulesAnswer: "200")
        // Received 0.25 µs after the GOAWAY answer on the same connection: sent before the GOAWAY could arrive.
        h.add(payload: #"{"aps":{"alert":"in flight"}}"#, after: 100_250)
        h.add(payload: #"{"aps":{"alert":"next"}}"#, connection: 2)
        let result = h.grade(.errorGoaway, context: RunContext(commandExitStatus: 0, expectedPushes: 3))
        #expect(result.verdict == .pass, "\(result.findings)")
    }

    @Test func aStreamResetIsNotAnUnknownReason() {
        var h = H()
        h.add(status: 0, injected: #"{"resetStream":"REFUSED_STREAM","probability":0.02}"#, rulesAnswer: "200")
        h.add(payload: #"{"aps":{"alert":"2"}}"#)
        #expect(h.grade(.errorUnknownReason, context: RunContext(commandExitStatus: 1)).verdict == .notApplicable)
    }

    @Test func warningsOnlyTheChecksConfigurationCanClearAreNotHeldAgainstTheSender() {
        var h = H()
        h.add(warnings: [.init(code: "la-content-state-unchecked", message: "no schema"), .init(code: "auth-topic-unchecked", message: "no bundle IDs")])
        let result = h.grade(.acceptedWarnings)
        #expect(result.verdict == .pass)
        #expect(result.summary.contains("la-content-state-unchecked"))
    }

    @Test(arguments: [("ServiceUnavailable", 503), ("TooManyRequests", 429), ("InternalServerError", 500)])
    func aPushNotRetriedAfterATransientErrorFails(reason: String, status: Int) {
        var h = H()
        h.add(status: status, reason: reason, injected: #"{"reason":"\#(reason)","status":\#(status)}"#, rulesAnswer: "200")
        h.add(payload: #"{"aps":{"alert":"other"}}"#)
        let result = h.grade(.errorTransient)
        #expect(result.verdict == .fail)
        #expect(result.findings.first?.message.contains("lost") == true)
    }

    @Test func aUnixEpochDateTheAppReadsAs2057Fails() {
        var h = H()
        h.add(payload: H.liveActivity(event: "update", timestamp: "1767225610"), pushType: "liveactivity",
              outcome: "applied", warnings: [.init(code: "la-content-state-unix-date", message: "content-state.eta decodes as 2057-01-01")])
        #expect(h.grade(.acceptedWarnings).verdict == .fail)
        var advice = H()
        advice.add(warnings: [.init(code: "push-type-missing", message: "no apns-push-type")])
        #expect(advice.grade(.acceptedWarnings).verdict == .warn)
    }

    @Test func aPushAcceptedTwiceFailsByPayloadOrByApnsID() {
        var resent = H()
        resent.add(payload: #"{"aps":{"alert":"order shipped"}}"#)
        resent.add(payload: #"{"aps":{"alert":"order shipped"}}"#, connection: 2)
        #expect(resent.grade(.acceptedDuplicates).verdict == .fail)
        var sameID = H()
        sameID.add(payload: #"{"aps":{"alert":"a"}}"#, apnsID: "0E8D3C3B-7F1B-4A52-9E0B-3E4C7A1D2B90")
        sameID.add(payload: #"{"aps":{"alert":"b"}}"#, apnsID: "0e8d3c3b-7f1b-4a52-9e0b-3e4c7a1d2b90")
        #expect(sameID.grade(.acceptedDuplicates).verdict == .fail)
        var retried = H()  // a rejected attempt then an accepted one is a retry, not a duplicate
        retried.add(status: 503, reason: "ServiceUnavailable", injected: #"{"reason":"ServiceUnavailable"}"#)
        retried.add()
        #expect(retried.grade(.acceptedDuplicates).verdict == .pass)
    }
}

/// What the user decides: fail on warnings, a rule's severity, expected failures, the grading file.
@Suite struct GradingPolicyTests {
    static func results() -> [RuleResult] {
        var h = HistoryBuilder()
        h.add(status: 400, reason: "BadDeviceToken")
        h.add(payload: #"{"aps":{"alert":"2"}}"#, warnings: [.init(code: "push-type-missing", message: "m")])
        return SenderGrader().grade(h.requests, selection: RuleSelection(only: ["accepted"]))
    }

    func report(_ policy: GradingPolicy) -> ConformanceReport {
        ConformanceReport(title: "t", command: [], commandExitStatus: 0, results: policy.apply(Self.results()), requests: [], policy: policy)
    }

    @Test func warningsFailTheRunOnlyWhenAsked() {
        #expect(report(GradingPolicy()).failedRuleNames == ["accepted.status"])
        #expect(report(GradingPolicy(failOnWarnings: true)).failedRuleNames == ["accepted.status", "accepted.warnings"])
    }

    @Test func severityDemotesPromotesAndSkips() {
        let demoted = report(GradingPolicy(severity: ["accepted.status": .warn]))
        #expect(demoted.exitStatus == 0)
        #expect(demoted.results.first { $0.rule.id == "accepted.status" }?.verdict == .warn)
        let promoted = report(GradingPolicy(severity: ["accepted.warnings": .fail, "accepted.status": .skip]))
        #expect(promoted.failedRuleNames == ["accepted.warnings"])
        #expect(promoted.results.first { $0.rule.id == "accepted.status" }?.verdict == .notApplicable)
    }

    @Test func anExpectedFailureFailsTheRunOnlyWhenItHolds() {
        let expected = report(GradingPolicy(expectFail: ["accepted.status"]))
        #expect(expected.exitStatus == 0)
        #expect(expected.junitXML().contains("<skipped message=\"expected to fail"))
        let held = report(GradingPolicy(expectFail: ["accepted.warnings", "accepted.duplicates"]))
        #expect(held.failedRuleNames == ["accepted.status", "accepted.warnings", "accepted.duplicates"])
    }

    @Test func aScenarioRuleIsNamedWithOrWithoutItsScenario() {
        var result = RuleResult(rule: .acceptedStatus, summary: "", findings: [Finding(.fail, "x")])
        result.rule.id = "goaway/accepted.status"
        #expect(GradingPolicy(severity: ["accepted": .warn]).apply([result])[0].verdict == .warn)
        #expect(GradingPolicy(severity: ["goaway/accepted.status": .skip]).apply([result])[0].verdict == .notApplicable)
        #expect(GradingPolicy(severity: ["other/accepted.status": .skip]).apply([result])[0].verdict == .fail)
    }

    @Test func theGradingFileIsReadAndChecked() throws {
        let policy = try GradingPolicy.load(Data(#"{"failOn":"warn","severity":{"auth.reuse":"skip"},"expectFail":["device.budget"]}"#.utf8), path: "g.json")
        #expect(policy == GradingPolicy(failOnWarnings: true, severity: ["auth.reuse": .skip], expectFail: ["device.budget"]))
        #expect(throws: GradingPolicy.Problem.self) { try GradingPolicy.load(Data(#"{"severity":{"auth.reues":"warn"}}"#.utf8), path: "g.json") }
        #expect(throws: GradingPolicy.Problem.self) { try GradingPolicy.load(Data(#"{"failon":"warn"}"#.utf8), path: "g.json") }
        #expect(throws: GradingPolicy.Problem.self) { try GradingPolicy.parseSeverity("auth.reuse=loud") }
        #expect(try GradingPolicy.parseSeverity("auth=warn") == ("auth", .warn))
    }

    @Test func aWarningIsVisibleInJUnitAndJSON() throws {
        let report = report(GradingPolicy())
        let xml = report.junitXML()
        let testcase = try #require(xml.components(separatedBy: "<testcase ").first { $0.contains("accepted.warnings") })
        #expect(testcase.contains("<property name=\"verdict\" value=\"warn\"/>"))
        #expect(testcase.contains("<system-err>WARN "))
        let json = try JSONSerialization.jsonObject(with: Data(report.jsonText().utf8)) as! [String: Any]
        #expect(json["warnedRules"] as? [String] == ["accepted.warnings"])
        #expect(report.html().contains("1 warned"))
    }
}

@Suite struct SenderCrossCheckTests {
    @Test func anAcceptedPushTheSenderDidNotSeeIsAMockBug() {
        var h = HistoryBuilder()
        h.add(payload: #"{"aps":{"alert":"a"}}"#)
        h.add(token: HistoryBuilder.tokenB, payload: #"{"aps":{"alert": "b"}}"#)
        h.add(token: HistoryBuilder.tokenB, payload: #"{"aps":{"alert":"b"}}"#)
        h.add(payload: #"{"aps":{"alert":"c"}}"#, status: 503, reason: "ServiceUnavailable")
        let instructions = [(HistoryBuilder.tokenA, #"{"aps":{"alert":"a"}}"#), (HistoryBuilder.tokenB, #"{"aps": {"alert":"b"}}"#),
                            (HistoryBuilder.tokenA, #"{"aps":{"alert":"c"}}"#)]
        let outcomes = [SenderCrossCheck.Outcome(index: 0, success: false, said: "ConnectionResetError"),
                        .init(index: 1, success: true), .init(index: 2, success: true)]
        let check = SenderCrossCheck.compare(outcomes: outcomes, instructions: instructions.map { ($0.0, $0.1) }, requests: h.requests)
        #expect(check.lostAnswers.map(\.index) == [0])
        #expect(check.unconfirmedSuccesses.map(\.index) == [2])
        #expect(check.duplicateAcceptances == 1, "the same JSON re-serialised is the same push")
        #expect(!check.holds)
        #expect(check.terminalText().contains("MOCK BUG: push #0"))
    }

    @Test func theResultsFileIsOneObjectALine() throws {
        let outcomes = try SenderCrossCheck.parseOutcomes(Data("{\"index\":0,\"success\":true}\n\n{\"index\":1,\"success\":false,\"said\":\"410 Unregistered\"}\n".utf8))
        #expect(outcomes == [.init(index: 0, success: true), .init(index: 1, success: false, said: "410 Unregistered")])
    }
}
