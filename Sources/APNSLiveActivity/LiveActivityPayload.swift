import APNSJSON

/// The Live Activity fields of a push's `aps` dictionary, read leniently (a field of the wrong JSON type reads as
/// absent here; the checker reports it). Source: A-GEN Table 1, A-LA (A-GEN).
public struct LiveActivityPayload: Sendable, Hashable {
    /// The whole `aps` dictionary.
    public var aps: JSONValue
    /// `event` when it is one of start/update/end.
    public var event: LiveActivityEvent?
    /// `timestamp` as sent, in the sender's unit (should be seconds since 1970).
    public var timestamp: Double?
    public var contentState: JSONValue?
    public var attributesType: String?
    public var attributes: JSONValue?
    /// Whether `alert` is present and not null.
    public var hasAlert: Bool
    public var staleDate: Double?
    public var dismissalDate: Double?
    public var relevanceScore: Double?
    public var hasInputPushToken: Bool
    public var inputPushChannel: String?

    /// Reads the fields from a parsed payload; nil when it has no `aps` object.
    public init?(payload: JSONValue) {
        guard let aps = payload["aps"], case .object = aps else { return nil }
        self.aps = aps
        event = aps["event"].flatMap(Self.string).flatMap(LiveActivityEvent.init(rawValue:))
        timestamp = aps["timestamp"]?.doubleValue
        contentState = aps["content-state"]
        attributesType = aps["attributes-type"].flatMap(Self.string)
        attributes = aps["attributes"]
        hasAlert = aps["alert"].map { $0 != .null } ?? false
        staleDate = aps["stale-date"]?.doubleValue
        dismissalDate = aps["dismissal-date"]?.doubleValue
        relevanceScore = aps["relevance-score"]?.doubleValue
        hasInputPushToken = aps["input-push-token"].map { $0 != .null } ?? false
        inputPushChannel = aps["input-push-channel"].flatMap(Self.string)
    }

    private static func string(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }
}
