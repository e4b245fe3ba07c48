/// What the simulated device did with a Live Activity push. APNs answered 200 in every case; these are what the
/// sender cannot see. Source: A-JSONDEC and A-LA.
public enum LiveActivityOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// The push changed the activity (started, updated or ended it).
    case applied
    /// An `end` whose `dismissal-date` is past: the activity was removed at once (A-LA).
    case dismissed
    /// `timestamp` older than the last applied update: ignored (A-LAUPD).
    case ignoredOlderTimestamp
    /// The activity already ended (by `end` or by the 8-hour limit) or was dismissed: ignored (A-LA).
    case ignoredAlreadyEnded
    /// An update/end sent to a push-to-start token while the mock issues per-activity update tokens: there is no
    /// activity behind that token (mobile-surfaces MS023).
    case ignoredNoActivity
    /// `content-state` does not decode against `ContentState` (flutter_live_activities#118).
    case droppedUndecodableContentState
    /// `attributes` of a start do not decode against the attributes type.
    case droppedUndecodableAttributes
    /// A start whose `attributes-type` is missing or is not one of the app's types.
    case droppedUnknownAttributesType
    /// A start without `alert` (GoCarrot/TeakCocoaPodsExample PR #2).
    case droppedStartWithoutAlert
    /// Not JSON, no `aps`, or no valid `event`.
    case droppedInvalidPayload
    /// Over the per-hour priority-10 budget (A-LA; [DTS] F-747624).
    case throttled

    /// Whether the push had no effect the sender intended. Strict mode answers these with HTTP 400.
    public var isDeviceDrop: Bool {
        switch self {
        case .applied, .dismissed: false
        default: true
        }
    }

    /// The reason strict mode sends in `{"reason": …}`. **Not APNs behaviour**: real APNs answers 200 and never
    /// sends these; they exist only so that tests which see status codes alone can notice device-side drops.
    public var mockStrictReason: String? {
        switch self {
        case .applied, .dismissed: nil
        case .ignoredOlderTimestamp: "MockDeviceIgnoredOlderTimestamp"
        case .ignoredAlreadyEnded: "MockDeviceIgnoredEndedActivity"
        case .ignoredNoActivity: "MockDeviceNoActivityForToken"
        case .droppedUndecodableContentState: "MockDeviceDroppedContentState"
        case .droppedUndecodableAttributes: "MockDeviceDroppedAttributes"
        case .droppedUnknownAttributesType: "MockDeviceUnknownAttributesType"
        case .droppedStartWithoutAlert: "MockDeviceDroppedStartWithoutAlert"
        case .droppedInvalidPayload: "MockDeviceDroppedInvalidPayload"
        case .throttled: "MockDeviceThrottled"
        }
    }
}
