import APNSCore
import Foundation
import Testing

/// One test per interaction between two stages of `PushPipeline`.
@Suite struct PushPipelineStageTests {
    typealias F = PipelineFixture

    private func decide(
        _ pipeline: PushPipeline, _ request: HTTPRequest, scripts: [ScriptedReply] = [],
        authenticator: SequenceAuthenticator = SequenceAuthenticator()
    ) -> PushDecision {
        var state = PushConnectionState(requiresTokenAuthentication: true)
        return pipeline.decide(
            request, connection: &state, authenticator: authenticator, scripts: ListedScripts(scripts), now: F.now)
    }

    private func reason(_ response: HTTPResponse) throws -> ErrorBody {
        try JSONDecoder().decode(ErrorBody.self, from: Data(response.body))
    }

    @Test func scriptedAnswerReplacesTheRulesAndSkipsTheDevice() throws {
        let device = LiveActivityDevice()
        let decision = decide(
            F.pipeline(strict: ["la-timestamp-milliseconds"], device: device), F.liveActivity(F.updateInMilliseconds),
            scripts: [ScriptedReply(status: 503, reason: "ServiceUnavailable")])
        #expect(decision.response.status == 503)
        #expect(try reason(decision.response).reason == "ServiceUnavailable")
        #expect(decision.record.verdict.ruleID == "scripted")
        #expect(decision.record.verdict.isStrictMockAnswer == false)
        #expect(decision.record.liveActivity == nil)
        #expect(device.activity(token: F.token, now: F.now) == nil)
    }

    @Test func liveActivityWarningsReachStrictMode() throws {
        let device = LiveActivityDevice()
        let decision = decide(F.pipeline(strict: ["la-timestamp-milliseconds"], device: device),
                              F.liveActivity(F.updateInMilliseconds))
        #expect(decision.response.status == 400)
        #expect(try reason(decision.response).reason == "MockStrict:la-timestamp-milliseconds")
        #expect(decision.record.verdict.isStrictMockAnswer)
        #expect(decision.record.verdict.ruleID == "strict.la-timestamp-milliseconds")
        #expect(decision.record.verdict.warnings.map(\.code).contains("la-timestamp-milliseconds"))
        // A push strict mode refuses never reaches the device.
        #expect(decision.record.liveActivity == nil)
        #expect(device.activity(token: F.token, now: F.now) == nil)
    }

    @Test func withoutStrictTheDeviceAppliesAndWarns() {
        let device = LiveActivityDevice()
        let decision = decide(F.pipeline(device: device), F.liveActivity(F.updateInMilliseconds))
        #expect(decision.response.status == 200)
        #expect(decision.record.verdict.warnings.map(\.code).contains("la-timestamp-milliseconds"))
        #expect(decision.record.liveActivity?.code == LiveActivityOutcome.applied.rawValue)
        #expect(device.activity(token: F.token, now: F.now)?.timeline.count == 1)
    }

    @Test func strictDeviceAnswersADroppedPushWithTheMockReason() throws {
        let decision = decide(F.pipeline(strictDevice: true), F.liveActivity(F.startWithoutAlert))
        #expect(decision.response.status == 400)
        #expect(try reason(decision.response).reason == "MockDeviceDroppedStartWithoutAlert")
        #expect(decision.record.verdict.ruleID == "strict.live-activity-device")
        #expect(decision.record.verdict.isStrictMockAnswer)
        #expect(decision.record.liveActivity?.code == LiveActivityOutcome.droppedStartWithoutAlert.rawValue)
    }

    @Test func withoutStrictDeviceADroppedPushIsStillA200() {
        let decision = decide(F.pipeline(), F.liveActivity(F.startWithoutAlert))
        #expect(decision.response.status == 200)
        #expect(decision.record.liveActivity?.code == LiveActivityOutcome.droppedStartWithoutAlert.rawValue)
    }

    @Test func streamLimitIsAnnouncedOnceAfterTheFirstValidToken() {
        let pipeline = F.pipeline()
        let authenticator = SequenceAuthenticator([
            .rejected(.invalidProviderToken, explanation: "bad signature"), SequenceAuthenticator.accept,
        ])
        var state = PushConnectionState(requiresTokenAuthentication: true)
        var actions: [[ConnectionAction]] = []
        for _ in 0..<3 {
            let decision = pipeline.decide(
                F.push(), connection: &state, authenticator: authenticator, scripts: NoScriptedOutcomes(), now: F.now)
            actions.append(decision.actions)
        }
        #expect(actions == [[], [.setMaxConcurrentStreams(1000)], []])
        #expect(state.announcedMaxConcurrentStreams == 1000)
    }

    @Test func withoutTokenAuthenticationTheFullLimitIsThereFromTheStart() {
        var state = PushConnectionState(requiresTokenAuthentication: false)
        let decision = F.pipeline().decide(
            F.push(), connection: &state, authenticator: nil, scripts: NoScriptedOutcomes(), now: F.now)
        #expect(state.announcedMaxConcurrentStreams == 1000)
        #expect(decision.actions.isEmpty)
    }

    @Test(arguments: [
        (scripted: Int64?.none, expected: Int64(1_767_225_600_000)),
        (scripted: Int64?.some(1_700_000_000_000), expected: Int64(1_700_000_000_000)),
    ])
    func scripted410CarriesAMillisecondTimestamp(scripted: Int64?, expected: Int64) throws {
        let decision = decide(
            F.pipeline(), F.push(), scripts: [ScriptedReply(status: 410, reason: "Unregistered", timestamp: scripted)])
        #expect(decision.response.status == 410)
        let body = try reason(decision.response)
        #expect(body.reason == "Unregistered")
        #expect(body.timestamp == expected)
    }

    @Test func goAwayFollowsTheScriptedAnswer() throws {
        let decision = decide(
            F.pipeline(), F.push(),
            scripts: [ScriptedReply(status: 503, reason: "ServiceUnavailable", goAway: true)])
        #expect(decision.response.status == 503)
        guard case .goAway(let code, let debugData) = decision.actions.first else {
            Issue.record("no GOAWAY: \(decision.actions)")
            return
        }
        #expect(code == 0)
        #expect(try JSONDecoder().decode(ErrorBody.self, from: Data(debugData)).reason == "ServiceUnavailable")
        // The connection's first valid token still raises the stream limit, after the GOAWAY.
        #expect(decision.actions.dropFirst() == [.setMaxConcurrentStreams(1000)])
    }

    @Test func responseAndRecordShareTheIDs() {
        let decision = decide(F.pipeline(), F.push())
        #expect(decision.response.value("apns-id") == "00000000-0000-0000-0000-000000000001")
        #expect(decision.response.value("apns-unique-id") == "00000000-0000-0000-0000-000000000002")
        #expect(decision.record.apnsID == "00000000-0000-0000-0000-000000000001")
        #expect(decision.record.uniqueID == "00000000-0000-0000-0000-000000000002")
    }

    /// A scripted answer keeps the push's environment: a development push still gets its `apns-unique-id`.
    @Test func aScriptedAnswerKeepsTheUniqueID() {
        let decision = decide(
            F.pipeline(), F.push(), scripts: [ScriptedReply(status: 503, reason: "ServiceUnavailable")])
        #expect(decision.response.status == 503)
        #expect(decision.response.value("apns-unique-id") == "00000000-0000-0000-0000-000000000002")
        #expect(decision.record.uniqueID == "00000000-0000-0000-0000-000000000002")
    }
}
