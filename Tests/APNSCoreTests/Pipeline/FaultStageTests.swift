@testable import APNSCore
import Testing

/// Fault injection as a pipeline stage: a fault that keeps the rules' answer lets the device and strict mode run;
/// one that withholds the answer tells the adapter to send nothing; a fault's stream limit wins over the raise
/// after authentication; every fault marks the record.
@Suite struct FaultStageTests {
    typealias F = PipelineFixture

    /// Hands every request the same outcome, built from the rules' verdict.
    struct FixedFault: ScriptedOutcomeSource {
        let make: @Sendable (Verdict) -> ScriptedOutcome
        func scriptedOutcome(
            for request: HTTPRequest, verdict: Verdict, requestsOnConnection: Int, now: Timestamp
        ) -> ScriptedOutcome? { make(verdict) }
    }

    static func mark(_ effect: String) -> InjectedFault {
        InjectedFault(faultJSON: "{}", index: 3, effect: effect, rulesAnswer: "200")
    }

    private func decide(_ pipeline: PushPipeline, _ request: HTTPRequest, _ fault: FixedFault) -> (PushDecision, PushConnectionState) {
        var state = PushConnectionState(requiresTokenAuthentication: true)
        let decision = pipeline.decide(
            request, connection: &state, authenticator: SequenceAuthenticator(), scripts: fault, now: F.now)
        return (decision, state)
    }

    @Test func aDelayKeepsTheRulesAnswerAndTheDeviceStillApplies() {
        let device = LiveActivityDevice()
        let delay = FixedFault { verdict in
            ScriptedOutcome(verdict: verdict, actions: [.delayResponse(milliseconds: 50)], sendsAnything: true,
                            replacesAnswer: false, mark: Self.mark("delay"), announcedMaxConcurrentStreams: nil)
        }
        let (decision, _) = decide(F.pipeline(device: device), F.liveActivity(F.updateInMilliseconds), delay)
        #expect(decision.response.status == 200)
        #expect(decision.actions.first == .delayResponse(milliseconds: 50))
        #expect(decision.record.liveActivity?.code == LiveActivityOutcome.applied.rawValue)
        #expect(decision.record.injected?.effect == "delay")
        #expect(decision.sendsResponse)
    }

    @Test func aFaultThatKeepsTheAnswerStillMeetsStrictMode() {
        let keep = FixedFault { verdict in
            ScriptedOutcome(verdict: verdict, actions: [], sendsAnything: true, replacesAnswer: false,
                            mark: Self.mark("delay"), announcedMaxConcurrentStreams: nil)
        }
        let (decision, _) = decide(
            F.pipeline(strict: ["la-timestamp-milliseconds"], device: LiveActivityDevice()),
            F.liveActivity(F.updateInMilliseconds), keep)
        #expect(decision.response.status == 400)
        #expect(decision.record.verdict.ruleID == "strict.la-timestamp-milliseconds")
    }

    @Test func aBlackHoleSendsNothingButIsRecorded() {
        let blackHole = FixedFault { verdict in
            ScriptedOutcome(verdict: verdict.withoutAnswer(), actions: [], sendsAnything: false, replacesAnswer: true,
                                   mark: Self.mark("blackHole"), announcedMaxConcurrentStreams: nil)
        }
        let device = LiveActivityDevice()
        let (decision, _) = decide(F.pipeline(device: device), F.liveActivity(F.updateInMilliseconds), blackHole)
        #expect(!decision.sendsResponse)
        #expect(decision.record.verdict.status == 0)
        #expect(decision.record.injected?.effect == "blackHole")
        #expect(device.activity(token: F.token, now: F.now) == nil)
    }

    @Test func aFaultsStreamLimitIsNotUndoneByAuthentication() {
        let settings = FixedFault { verdict in
            ScriptedOutcome(verdict: verdict, actions: [.setMaxConcurrentStreams(7)], sendsAnything: true,
                            replacesAnswer: false, mark: Self.mark("maxConcurrentStreams"),
                            announcedMaxConcurrentStreams: 7)
        }
        let (decision, state) = decide(F.pipeline(), F.push(), settings)
        #expect(decision.actions == [.setMaxConcurrentStreams(7)])
        #expect(state.announcedMaxConcurrentStreams == 7)
        #expect(state.requestsOnConnection == 1)
    }
}
