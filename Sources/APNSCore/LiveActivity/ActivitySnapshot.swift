import APNSJSON

/// The state of a Live Activity as the device would show it. Source: ActivityKit `ActivityState` (A-LA).
package enum ActivityPhase: String, Sendable, Hashable, Codable {
    case active, stale, ended, dismissed
}

/// What a token is to the simulated device.
package enum TokenRole: String, Sendable, Hashable, Codable {
    /// The token of one activity: updates and end go here.
    case activity
    /// A push-to-start token that handed out per-activity update tokens (`issuesUpdateTokens`).
    case pushToStart
}

/// One push in a token's timeline: what the device did and why.
package struct TimelineEntry: Sendable, Hashable, Codable {
    package var receivedAt: Timestamp
    package var apnsID: String
    /// `aps.event` as sent (nil when missing or unreadable).
    package var event: String?
    package var priority: Int
    /// `aps.timestamp` as sent.
    package var timestamp: Double?
    package var outcome: LiveActivityOutcome
    package var explanation: String

    package init(
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
package struct ActivitySnapshot: Sendable, Hashable, Codable {
    package var deviceToken: String
    package var role: TokenRole
    package var topic: String
    /// The `ActivityAttributes` type, when known (from the start, or from the schema an adopted update decoded as).
    package var attributesType: String?
    package var attributes: JSONValue?
    package var contentState: JSONValue?
    /// nil when no activity is known behind this token (e.g. only dropped pushes so far).
    package var state: ActivityPhase?
    /// Why the state is what it is when the device changed it by itself ("ended by the 8-hour limit at …").
    package var stateNote: String?
    package var lastAppliedTimestamp: Double?
    package var startedAt: Timestamp?
    /// Whether the mock saw the start (false: the app started it and the first push the mock saw was an update).
    package var startSeen: Bool
    package var endedAt: Timestamp?
    package var staleDate: Timestamp?
    /// When an ended activity leaves the Lock Screen.
    package var dismissAt: Timestamp?
    package var relevanceScore: Double?
    /// The push-to-start token this activity was started through, when it has its own update token.
    package var startedByPushToStartToken: String?
    /// Update tokens issued by this push-to-start token.
    package var issuedUpdateTokens: [String]
    package var priority10PushesInLastHour: Int
    package var budgetPerHour: Int
    package var timeline: [TimelineEntry]

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
