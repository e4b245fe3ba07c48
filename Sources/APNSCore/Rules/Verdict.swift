import APNSJSON

/// The validator's answer to one device push: what to send back, why, and the request facts the delivery record
/// keeps.
public struct Verdict: Sendable, Codable, Hashable {
    /// HTTP status: 200, or the status of `reason` (A-RESP), or a strict rejection's status.
    public var status: Int
    /// APNs' reason; nil on 200 and on strict answers whose wire reason is not an APNs reason.
    public var reason: Reason?
    /// The `reason` string for the response body: `reason.rawValue`, or a strict answer's mock reason. nil on 200.
    public var wireReason: String?
    /// Integer milliseconds since the epoch; only on 410 (A-RESP).
    public var timestamp: Int64?
    /// Accepted-but-probably-wrong findings, in rule order (also on rejections, from the rules that ran).
    public var warnings: [PushWarning]
    /// What to change, in plain words; nil on a clean 200.
    public var explanation: String?
    /// The id of the rule that decided (`PushRule.id`, or `strict.<code>`); nil on 200.
    public var ruleID: String?
    /// True when the answer is the mock's strict mode, not what APNs would answer.
    public var isStrictMockAnswer: Bool
    /// The token-authenticated sender; nil without token authentication or when rejected before it.
    public var sender: AuthenticatedSender?
    /// The environment the push was judged in.
    public var environment: APNsEnvironment
    /// The body as the rules parsed it (nil when it is not JSON or the rules stopped before parsing), so later
    /// steps such as the Live Activity device reuse it instead of parsing the body again.
    public var payload: JSONValue?

    // Request facts as sent (nil when absent or not parseable).
    public var deviceToken: String?
    public var topic: String?
    public var pushType: PushType?
    /// `apns-id` exactly as sent.
    public var apnsID: String?
    public var priority: Int?
    public var expiration: Int64?
    public var collapseID: String?

    public var isAccepted: Bool { status == 200 }

    public init(
        status: Int, reason: Reason? = nil, wireReason: String? = nil, timestamp: Int64? = nil,
        warnings: [PushWarning] = [], explanation: String? = nil, ruleID: String? = nil,
        isStrictMockAnswer: Bool = false, sender: AuthenticatedSender? = nil,
        environment: APNsEnvironment = .development, facts: PushFacts = PushFacts(), payload: JSONValue? = nil
    ) {
        self.status = status
        self.reason = reason
        self.wireReason = wireReason
        self.timestamp = timestamp
        self.warnings = warnings
        self.explanation = explanation
        self.ruleID = ruleID
        self.isStrictMockAnswer = isStrictMockAnswer
        self.sender = sender
        self.environment = environment
        self.payload = payload
        self.deviceToken = facts.deviceToken
        self.topic = facts.topic
        self.pushType = facts.pushType
        self.apnsID = facts.apnsID
        self.priority = facts.priority
        self.expiration = facts.expiration
        self.collapseID = facts.collapseID
    }
}

/// The request facts the rules parse once and the verdict reports.
public struct PushFacts: Sendable, Codable, Hashable {
    public var deviceToken: String?
    public var topic: String?
    public var pushType: PushType?
    public var apnsID: String?
    public var priority: Int?
    public var expiration: Int64?
    public var collapseID: String?

    public init(
        deviceToken: String? = nil, topic: String? = nil, pushType: PushType? = nil, apnsID: String? = nil,
        priority: Int? = nil, expiration: Int64? = nil, collapseID: String? = nil
    ) {
        self.deviceToken = deviceToken
        self.topic = topic
        self.pushType = pushType
        self.apnsID = apnsID
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
    }
}
