/// A sender rule: its name (selected by prefix with `--only` / `--skip`), what it asks, and the Apple source it
/// rests on. The catalogue is data; each id has one grader in `SenderGrader`. docs/conformance.md lists them.
package struct ConformanceRule: Sendable, Equatable, Codable {
    package var id: String
    package var title: String
    /// Source keys (A-SEND, A-RESP, A-TOKEN, A-CONN, A-LA, F-…) as docs/sources.md lists them.
    package var sources: [String]
    /// What a sender must do, one sentence.
    package var requirement: String

    package init(id: String, title: String, sources: [String], requirement: String) {
        self.id = id
        self.title = title
        self.sources = sources
        self.requirement = requirement
    }

    package var category: String { String(id.prefix { $0 != "." }) }
}

extension ConformanceRule {
    package static let acceptedStatus = ConformanceRule(
        id: "accepted.status", title: "Accepted by APNs", sources: ["A-SEND", "A-RESP"],
        requirement: "Every request the sender makes is accepted (200); only answers an injected fault changed are not counted.")
    package static let acceptedWarnings = ConformanceRule(
        id: "accepted.warnings", title: "No warnings", sources: ["A-SEND", "A-GEN"],
        requirement: "Accepted requests carry no mock warning: none that makes the device drop or misread the push (fail), none that departs from Apple's advice (warn).")
    package static let acceptedDuplicates = ConformanceRule(
        id: "accepted.duplicates", title: "No push delivered twice", sources: ["A-SEND"],
        requirement: "The same push (same device token and payload bytes, or the same apns-id) is accepted at most once, unless an apns-collapse-id makes the device replace it.")
    package static let deviceApplied = ConformanceRule(
        id: "device.applied", title: "Live Activity pushes are applied", sources: ["A-LA"],
        requirement: "Every accepted Live Activity push is applied by the device: content-state decodes, the payload is valid, the token has an activity.")
    package static let deviceTimestamps = ConformanceRule(
        id: "device.timestamps", title: "Timestamps increase per activity", sources: ["A-LA"],
        requirement: "Each Live Activity push carries aps.timestamp in seconds, strictly greater than the previous one for the same activity.")
    package static let deviceAfterEnd = ConformanceRule(
        id: "device.after-end", title: "No update after end", sources: ["A-LA"],
        requirement: "After an end event the activity's token receives no further update or end.")
    package static let deviceStart = ConformanceRule(
        id: "device.start", title: "Start carries attributes and alert", sources: ["A-LA"],
        requirement: "A start event carries attributes-type, attributes (an object) and an alert.")
    package static let deviceBudget = ConformanceRule(
        id: "device.budget", title: "Priority-10 budget respected", sources: ["A-LA", "F-747624"],
        requirement: "Live Activity pushes at priority 10 stay within the device's hourly budget (otherwise they are throttled).")
    package static let authES256 = ConformanceRule(
        id: "auth.es256", title: "ES256 with numeric iat", sources: ["A-TOKEN"],
        requirement: "The provider token is ES256 with a kid header and an integer iat in seconds.")
    package static let authReuse = ConformanceRule(
        id: "auth.reuse", title: "One token reused", sources: ["A-TOKEN", "F-675879"],
        requirement: "No connection gets a new provider token within 20 minutes of the previous one (fail: 429 TooManyProviderTokenUpdates); one token serves many connections (warn otherwise).")
    package static let authRefresh = ConformanceRule(
        id: "auth.refresh", title: "Refreshed within the hour", sources: ["A-TOKEN"],
        requirement: "No request uses a provider token whose iat is an hour old or older.")
    package static let authExpiredRetry = ConformanceRule(
        id: "auth.expired-retry", title: "Re-sent after ExpiredProviderToken", sources: ["A-TOKEN", "A-RESP"],
        requirement: "After 403 ExpiredProviderToken the push is sent again with a fresh provider token.")
    package static let connectionReuse = ConformanceRule(
        id: "connection.reuse", title: "Connections reused", sources: ["A-CONN"],
        requirement: "Pushes share long-lived connections instead of one TLS handshake per push.")
    package static let connectionStreams = ConformanceRule(
        id: "connection.streams", title: "MAX_CONCURRENT_STREAMS respected", sources: ["A-CONN"],
        requirement: "No connection has more requests in flight than the server's SETTINGS_MAX_CONCURRENT_STREAMS.")
    package static let connectionPipelining = ConformanceRule(
        id: "connection.pipelining", title: "Pipelined when many are due", sources: ["A-CONN"],
        requirement: "When many pushes are due the sender keeps several in flight instead of waiting for each answer.")
    package static let errorTokenGone = ConformanceRule(
        id: "error.token-gone", title: "410 token not used again", sources: ["A-RESP", "F-806522", "F-807380"],
        requirement: "After 410 Unregistered or ExpiredToken the device token is not pushed to again.")
    package static let errorPermanent = ConformanceRule(
        id: "error.permanent", title: "Permanent errors not retried", sources: ["A-RESP", "F-807380"],
        requirement: "A push answered with a permanent 400/403/405/413 reason is not sent again unchanged.")
    package static let errorTransient = ConformanceRule(
        id: "error.transient", title: "429/500/503 retried with back-off", sources: ["A-RESP", "F-807380"],
        requirement: "A push answered 429, 500 or 503 is sent again (fail: lost otherwise), after a back-off delay.")
    package static let errorGoaway = ConformanceRule(
        id: "error.goaway", title: "Reconnects after GOAWAY", sources: ["A-CONN", "A-RESP"],
        requirement: "After GOAWAY the sender opens a new connection and sends again what was not answered; requests up to the GOAWAY's last-stream-id are not held against it.")
    package static let errorUnknownReason = ConformanceRule(
        id: "error.unknown-reason", title: "Unknown reason survived", sources: ["A-RESP"],
        requirement: "An error reason the sender does not know does not stop it from sending.")

    /// Every rule, in report order.
    package static let all: [ConformanceRule] = [
        .acceptedStatus, .acceptedWarnings, .acceptedDuplicates, .deviceApplied, .deviceTimestamps, .deviceAfterEnd, .deviceStart,
        .deviceBudget, .authES256, .authReuse, .authRefresh, .authExpiredRetry, .connectionReuse,
        .connectionStreams, .connectionPipelining, .errorTokenGone, .errorPermanent, .errorTransient, .errorGoaway,
        .errorUnknownReason,
    ]
}

/// `--only` / `--skip` by name prefix (`auth`, `error.goaway`, …); both repeatable, skip wins.
package struct RuleSelection: Sendable, Equatable {
    package var only: [String]
    package var skip: [String]

    package init(only: [String] = [], skip: [String] = []) {
        self.only = only
        self.skip = skip
    }

    package func includes(_ name: String) -> Bool {
        if skip.contains(where: { name.hasPrefix($0) }) { return false }
        return only.isEmpty || only.contains { name.hasPrefix($0) }
    }
}
