
/// The stable codes of every Live Activity warning (`PushWarning.code`). Strict mode, tests and the docs refer to
/// them; they never change spelling.
public enum LiveActivityWarningCode: String, Sendable, CaseIterable, Codable {
    case payloadNotJSON = "la-payload-not-json"
    case apsMissing = "la-aps-missing"
    case apsUnknownKey = "la-aps-unknown-key"
    case eventMissing = "la-event-missing"
    case eventInvalid = "la-event-invalid"
    case timestampMissing = "la-timestamp-missing"
    case timestampNotNumber = "la-timestamp-not-number"
    case timestampMilliseconds = "la-timestamp-milliseconds"
    case timestampOlderThanApplied = "la-timestamp-older-than-applied"
    case timestampFuture = "la-timestamp-future"
    case attributesTypeMissing = "la-attributes-type-missing"
    case attributesTypeUnknown = "la-attributes-type-unknown"
    case attributesMissing = "la-attributes-missing"
    case attributesInvalid = "la-attributes-invalid"
    case attributesUnknownKey = "la-attributes-unknown-key"
    case attributesUnixDate = "la-attributes-unix-date"
    case attributesIgnored = "la-attributes-ignored"
    case alertMissing = "la-alert-missing"
    case contentStateMissing = "la-content-state-missing"
    case contentStateInvalid = "la-content-state-invalid"
    case contentStateUnknownKey = "la-content-state-unknown-key"
    case contentStateUnixDate = "la-content-state-unix-date"
    case contentStateUnchecked = "la-content-state-unchecked"
    case inputPushBoth = "la-input-push-both"
    case inputPushNotStart = "la-input-push-not-start"
    case staleDateNotNumber = "la-stale-date-not-number"
    case staleDateMilliseconds = "la-stale-date-milliseconds"
    case staleDatePast = "la-stale-date-past"
    case dismissalDateNotNumber = "la-dismissal-date-not-number"
    case dismissalDateMilliseconds = "la-dismissal-date-milliseconds"
    case dismissalDateWithoutEnd = "la-dismissal-date-without-end"
    case relevanceScoreNotNumber = "la-relevance-score-not-number"
    case payloadTooLarge = "la-payload-too-large"
    case activityDataTooLarge = "la-activity-data-too-large"

    func warning(_ message: String) -> PushWarning {
        PushWarning(code: rawValue, message: message)
    }
}
