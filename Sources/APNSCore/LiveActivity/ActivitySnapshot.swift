import APNSJSON

/// The state of a Live Activity as the device would show it. Source: ActivityKit `ActivityState` (A-LA).
public enum ActivityPhase: String, Sendable, Hashable, Codable {
    case active, stale, ended, dismissed
}

/// What a token is to the simulated device.
public enum TokenRole: String, Sendable, Hashable, Codable {
    /// The token of one activity: updates and end go here.
    case activity
    /// A push-to-start token that handed out per-activity update tokens (`issuesUpdateTokens`).
    case pushToStart
}

/// One push in a token's timeline: what the device did and why.
public struct TimelineEntry: Sendable, Hashable, Codable {
    public var receivedAt: Timestamp
    public var apnsID: String
    /// `aps.event` as sent (nil when missing or unreadable).
    public var event: String?
    public var priority: Int
    /// `aps.timestamp` as sent.
    public var timestamp: Double?
    public var outcome: LiveActivityOutcome
    public var explanation: String

    public init(
        receivedAt: Timestamp, apnsID: String, event: String?, priority: Int, timestamp: Double?,
        outcome: LiveActivityOutcome, explanation: String
    ) {
        self.receivedAt = receivedAt
        self.apnsID = apnsID
        self.event = event
        self.priority = priority
        self.timestamp = timestamp
        self.outcome = outcome
        self.explanation = explanation
    }
}

/// A token's activity and timeline, as the admin API shows it.
public struct ActivitySnapshot: Sendable, Hashable, Codable {
    public var deviceToken: String
    public var role: TokenRole
    public var topic: String
    /// The `ActivityAttributes` type, when known (from the start, or from the schema an adopted update decoded as).
    public var attributesType: String?
    public var attributes: JSONValue?
    public var contentState: JSONValue?
    /// nil when no activity is known behind this token (e.g. only dropped pushes so far).
    public var state: ActivityPhase?
    /// Why the state is what it is when the device changed it by itself ("ended by the 8-hour limit at …").
    public var stateNote: String?
    public var lastAppliedTimestamp: Double?
    public var startedAt: Timestamp?
    /// Whether the mock saw the start (false: the app started it and the first push the mock saw was an update).
    public var startSeen: Bool
    public var endedAt: Timestamp?
    public var staleDate: Timestamp?
    /// When an ended activity leaves the Lock Screen.
    public var dismissAt: Timestamp?
    public var relevanceScore: Double?
    /// The push-to-start token this activity was started through, when it has its own update token.
    public var startedByPushToStartToken: String?
    /// Update tokens issued by this push-to-start token.
    public var issuedUpdateTokens: [String]
    public var priority10PushesInLastHour: Int
    public var budgetPerHour: Int
    public var timeline: [TimelineEntry]

    init(deviceToken: String, role: TokenRole, topic: String) {
        self.deviceToken = deviceToken
        self.role = role
        self.topic = topic
        self.startSeen = false
        self.issuedUpdateTokens = []
        self.priority10PushesInLastHour = 0
        self.budgetPerHour = 0
        self.timeline = []
    }
}
