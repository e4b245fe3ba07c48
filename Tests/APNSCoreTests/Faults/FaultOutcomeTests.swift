@testable import APNSCore
import Testing

/// What a fired fault does to the rules' verdict and the connection, and how the record is marked.
@Suite struct FaultOutcomeTests {
    static let now = Timestamp(secondsSinceEpoch: 1_767_225_600)
    static let rules = Verdict.rejected(APNsRejection(.badTopic), PushFindings(ruleID: "topic.bad"))

    static func outcome(_ action: FaultAction, streamID: Int32 = 5) -> FaultOutcome {
        FaultFiring(spec: FaultSpec(action: action), index: 2, effect: .action(action)).outcome(for: rules, streamID: streamID, now: now)
    }

    @Test func anInjectedAnswerReplacesTheRulesAnswerAndTheMarkKeepsWhatTheyWouldHaveSaid() {
        let outcome = Self.outcome(.answer(status: 410, reason: .unregistered, timestamp: nil, goAway: false))
        #expect(outcome.verdict.status == 410 && outcome.verdict.timestamp == Self.now.millisecondsSinceEpoch)
        #expect(outcome.verdict.ruleID == "fault.answer")
        #expect(outcome.mark.index == 2 && outcome.mark.effect == "answer" && outcome.mark.rulesAnswer == "400 BadTopic")
        #expect(outcome.mark.faultJSON == #"{"reason":"Unregistered","status":410}"#)
        #expect(outcome.actions.isEmpty && outcome.sendsAnything && outcome.replacesAnswer)
    }

    @Test func aResetWithholdsTheAnswerAndResetsTheStream() {
        let outcome = Self.outcome(.resetStream(.REFUSED_STREAM))
        #expect(outcome.verdict.status == 0, "recorded as status null")
        #expect(outcome.actions == [.resetStream(errorCode: 7)])
    }

    @Test func aBlackHoleSendsNothing() {
        let outcome = Self.outcome(.blackHole)
        #expect(!outcome.sendsAnything && outcome.verdict.status == 0)
    }

    @Test func aGoAwayBeforeTheAnswerNamesThePreviousStreamAndWithholdsThisOne() {
        let outcome = Self.outcome(.goAway(FaultGoAway(after: .before)), streamID: 5)
        #expect(outcome.actions == [.goAwayNaming(lastStreamID: 3, errorCode: 0, debugData: Array(#"{"reason":"Shutdown"}"#.utf8), beforeResponse: true)])
        #expect(outcome.verdict.status == 0)
    }

    @Test func aGoAwayAfterTheAnswerKeepsTheRulesAnswer() {
        let outcome = Self.outcome(.goAway(FaultGoAway()))
        #expect(outcome.verdict == Self.rules && !outcome.replacesAnswer)
        #expect(outcome.actions == [.goAway(errorCode: 0, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))])
    }

    @Test func delayAndStreamLimitKeepTheRulesAnswer() {
        let delayed = FaultFiring(spec: FaultSpec(action: .delay(minMilliseconds: 5, maxMilliseconds: 9)), index: 0, effect: .delay(milliseconds: 7))
            .outcome(for: Self.rules, streamID: 1, now: Self.now)
        #expect(delayed.verdict == Self.rules && delayed.actions == [.delayResponse(milliseconds: 7)])
        let limited = Self.outcome(.maxConcurrentStreams(2))
        #expect(limited.verdict == Self.rules && limited.announcedMaxConcurrentStreams == 2)
    }

    @Test func closeConnectionClosesWithoutAnswer() {
        let outcome = Self.outcome(.closeConnection)
        #expect(outcome.actions == [.closeConnection] && outcome.verdict.status == 0)
    }
}
