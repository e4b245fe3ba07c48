import APNSCore
import Testing
@testable import APNSMock

@Suite struct ScriptedAnswersTests {
    @Test func aCountedScriptAnswersThatManyMatchingRequestsThenStops() {
        let scripts = ScriptedAnswers([ScriptedAnswer(deviceToken: "aa", status: 410, reason: "Unregistered", remaining: 2)])
        #expect(scripts.take(deviceToken: "bb", topic: "t") == nil, "another token does not match")
        #expect(scripts.take(deviceToken: "aa", topic: "t")?.status == 410)
        #expect(scripts.take(deviceToken: "aa", topic: "t")?.status == 410)
        #expect(scripts.take(deviceToken: "aa", topic: "t") == nil)
        #expect(scripts.all.isEmpty)
    }

    @Test func anUncountedScriptStaysUntilRemoved() {
        let scripts = ScriptedAnswers()
        scripts.add(ScriptedAnswer(topic: "com.example.app", status: 503, reason: "ServiceUnavailable"))
        for _ in 0..<5 { #expect(scripts.take(deviceToken: "x", topic: "com.example.app")?.reason == "ServiceUnavailable") }
        scripts.removeAll()
        #expect(scripts.take(deviceToken: "x", topic: "com.example.app") == nil)
    }

    @Test func aScripted410CarriesAnIntegerMillisecondTimestampAndSaysWhatTheRulesWouldHaveAnswered() {
        let now = Timestamp(secondsSinceEpoch: 1_767_225_600)
        let verdict = Verdict.accepted(PushFindings()).replaced(by: ScriptedAnswer(status: 410, reason: "Unregistered").reply, now: now)
        #expect(verdict.status == 410)
        #expect(verdict.reason == .unregistered)
        #expect(verdict.timestamp == 1_767_225_600_000)
        #expect(verdict.ruleID == "scripted")
        #expect(verdict.explanation?.contains("would have answered 200") == true)
        let response = verdict.response(apnsID: "ID", uniqueID: nil)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"reason":"Unregistered","timestamp":1767225600000}"#)
    }

    @Test func strictDeviceRejectionIsLabelledAsTheMocksOwn() {
        let verdict = Verdict.accepted(PushFindings()).strictDeviceRejection(wireReason: "MockDeviceDroppedContentState", explanation: "missing key progress")
        #expect(verdict.status == 400)
        #expect(verdict.isStrictMockAnswer)
        #expect(verdict.reason == nil)
        #expect(verdict.explanation?.contains("not APNs behaviour") == true)
    }
}
