import APNSCore

/// An authenticator that gives the decisions it is handed, one per request (the last one repeats), and counts as
/// authenticated after its first acceptance, like the JWT authenticator binding a connection.
final class SequenceAuthenticator: ConnectionAuthenticator {
    static let sender = AuthenticatedSender(
        teamID: "TEAM123456", keyID: "ABC123DEFG", tokenFingerprint: "test-fingerprint",
        headerJSON: #"{"alg":"ES256","kid":"ABC123DEFG"}"#, claimsJSON: #"{"iss":"TEAM123456","iat":1767225600}"#)
    static let accept = AuthDecision.accepted(sender, warnings: [])

    private var decisions: [AuthDecision]
    private(set) var hasAuthenticated = false

    init(_ decisions: [AuthDecision] = [accept]) {
        self.decisions = decisions
    }

    func authenticate(_ request: AuthRequest) -> AuthDecision {
        let decision = decisions.count > 1 ? decisions.removeFirst() : decisions[0]
        if case .accepted = decision { hasAuthenticated = true }
        return decision
    }
}

/// Scripted replies from a fixed list, consumed in order; records the verdicts it was asked about.
final class ListedScripts: ScriptedOutcomeSource {
    private var replies: [ScriptedReply]
    private(set) var askedAbout: [Verdict] = []

    init(_ replies: [ScriptedReply]) {
        self.replies = replies
    }

    func scriptedOutcome(
        for request: HTTPRequest, verdict: Verdict, requestsOnConnection: Int, now: Timestamp
    ) -> ScriptedOutcome? {
        askedAbout.append(verdict)
        guard !replies.isEmpty else { return nil }
        return .answering(replies.removeFirst(), to: verdict, now: now)
    }
}

/// Requests, payloads and a pipeline for the stage tests.
enum PipelineFixture {
    static let token = String(repeating: "ab", count: 32)
    static let now = Timestamp(nanosecondsSinceEpoch: 1_767_225_600_000_000_000)
    static let nowSeconds = 1_767_225_600
    static let liveActivityTopic = "com.example.app.push-type.liveactivity"
    static let apnsID = "123E4567-E89B-12D3-A456-4266554400A0"

    /// A Live Activity update the device applies (no schema configured, so content-state is not checked).
    static let update = #"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"eta":3}}}"#
    /// The same update with a millisecond timestamp (`la-timestamp-milliseconds`).
    static let updateInMilliseconds = #"{"aps":{"event":"update","timestamp":1767225600000,"content-state":{"eta":3}}}"#
    /// A push-to-start without `alert`: the device drops it (`droppedStartWithoutAlert`).
    static let startWithoutAlert =
        #"{"aps":{"event":"start","timestamp":1767225600,"attributes-type":"DeliveryAttributes","attributes":{},"content-state":{"eta":3}}}"#

    static func push(
        topic: String = "com.example.app", pushType: String = "alert", body: String = #"{"aps":{"alert":"Hi"}}"#,
        more: [HeaderField] = []
    ) -> HTTPRequest {
        HTTPRequest(
            method: "POST", path: "/3/device/\(token)",
            headers: [HeaderField("apns-topic", topic), HeaderField("apns-push-type", pushType)] + more,
            body: Array(body.utf8),
            connection: ConnectionInfo(id: 7, remoteAddress: "in-memory", localPort: 0, tls: nil, environment: .development))
    }

    static func liveActivity(_ body: String) -> HTTPRequest {
        push(topic: liveActivityTopic, pushType: "liveactivity", body: body, more: [HeaderField("apns-id", apnsID)])
    }

    static func pipeline(
        strict: [String] = [], device: LiveActivityDevice? = LiveActivityDevice(), strictDevice: Bool = false
    ) -> PushPipeline {
        var configuration = RuleConfiguration()
        configuration.strict = strict.map { StrictRejection(code: $0) }
        return PushPipeline(
            validator: PushValidator(configuration: configuration, tokens: DeviceTokenRegistry()), device: device,
            strictDevice: strictDevice, newApnsID: { "00000000-0000-0000-0000-000000000001" },
            newUniqueID: { "00000000-0000-0000-0000-000000000002" })
    }
}
