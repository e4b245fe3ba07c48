/// The stable codes of the warnings the device-push rules emit: APNs accepts the push (200) but it is probably a
/// mistake. Strict mode (`RuleConfiguration.strict`) refers to these codes. See docs/rules.md for each one's source.
public enum PushWarningCode: String, Sendable, Codable, CaseIterable, Hashable {
    /// `background` push sent with priority 10 or no priority (which defaults to 10). A-SEND: "Always use priority
    /// 5. Using priority 10 is an error." Whether APNs rejects it is unknown (A-SEND); devices drop it.
    case backgroundPriority10 = "background-priority-10"
    /// `background` push whose `aps` lacks `content-available: 1`: the app is not woken. A-BG.
    case backgroundWithoutContentAvailable = "background-without-content-available"
    /// `background` push that also carries `alert`, `badge` or `sound`. A-BG, A-GEN (`content-available`).
    case backgroundWithAlert = "background-with-alert"
    /// No `apns-push-type`. A-SEND: "Send an apns-push-type header with each push"; required on watchOS 6+.
    case pushTypeMissing = "push-type-missing"
    /// The topic carries another push type's suffix (e.g. `alert` to `….push-type.liveactivity`). A-SEND.
    case topicSuffixPushTypeMismatch = "topic-suffix-push-type-mismatch"
    /// `apns-expiration` looks like milliseconds (A-SEND: UNIX epoch seconds).
    case expirationMilliseconds = "expiration-milliseconds"
    /// `apns-expiration` is non-zero and already past: APNs will not store the push. A-SEND.
    case expirationPast = "expiration-past"
    /// `liveactivity` push with priority 1; A-LA allows 5 or 10.
    case liveActivityPriority1 = "liveactivity-priority-1"
    /// The payload has no `aps` dictionary. A-GEN ("include an aps key").
    case apsMissing = "aps-missing"
    /// `aps` is present but not a dictionary. A-GEN.
    case apsNotObject = "aps-not-object"
    /// A key in `aps` that is close to an Apple key (typo, wrong case or separator: `state-date`, `contentAvailable`).
    case apsUnknownKey = "aps-unknown-key"
    /// A custom key inside `aps`. A-GEN: "Don't add your own custom keys to the aps dictionary; APNs ignores custom
    /// keys."
    case apsCustomKey = "aps-custom-key"
    /// An Apple `aps` key with a value of the wrong JSON type (A-GEN Table 1), e.g. `"timestamp": "1767225600"`.
    case apsKeyType = "aps-key-type"
    /// `aps.timestamp` in milliseconds; A-GEN/A-LA: UNIX seconds. hapns defaults to `Date.now` (A-JSONDEC).
    case apsTimestampMilliseconds = "aps-timestamp-milliseconds"
    /// `aps.stale-date` in milliseconds (A-GEN: UNIX timestamp in seconds).
    case apsStaleDateMilliseconds = "aps-stale-date-milliseconds"
    /// `aps.dismissal-date` in milliseconds (A-GEN: UNIX timestamp in seconds; capacitor-live-activity#7).
    case apsDismissalDateMilliseconds = "aps-dismissal-date-milliseconds"
    /// `aps.stale-date` already past: the activity shows as stale at once (nalu PR #222).
    case apsStaleDatePast = "aps-stale-date-past"
    /// The body is not a JSON object and the configuration accepts it (`NonJSONBodyPolicy.acceptWithWarning`).
    case bodyNotJSONObject = "body-not-json-object"
    /// The registry declares tokens but not this one, and the configuration accepts it
    /// (`UndeclaredTokenPolicy.acceptWithWarning`).
    case undeclaredDeviceToken = "undeclared-device-token"
    /// A bearer token on a connection that authenticated with a client certificate: APNs ignores it (A-SEND), so a
    /// bad token would go unnoticed (`RuleConfiguration.tokenOnCertificateConnection`).
    case tokenOnCertificateConnection = "token-on-certificate-connection"

    /// A warning with this code and `message`.
    public func warning(_ message: String) -> PushWarning {
        PushWarning(code: rawValue, message: message)
    }
}
