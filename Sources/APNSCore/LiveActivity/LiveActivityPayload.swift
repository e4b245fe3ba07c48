import APNSJSON

/// The Live Activity fields of a push's `aps` dictionary, read leniently (a field of the wrong JSON type reads as
/// absent here; the checker reports it). Source: A-GEN Table 1, A-LA (A-GEN).
public struct LiveActivityPayload: Sendable, Hashable {
    /// The whole `aps` dictionary.
    public var aps: JSONValue
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    /// `event` when it is one of start/update/end.
    public var event: Optional<LiveActivityEvent>
    /// `timestamp` as sent, in the sender's unit (should be seconds since 1970).
    public var timestamp: Optional<Double>
    public var contentState: Optional<JSONValue>
    public var attributesType: Optional<String>
    public var attributes: Optional<JSONValue>
    /// Whether `alert` is present and not null.
    public var hasAlert: Bool
    public var staleDate: Optional<Double>
    public var dismissalDate: Optional<Double>
    public var relevanceScore: Optional<Double>
    public var hasInputPushToken: Bool
    public var inputPushChannel: Optional<String>

    /// Reads the fields from a parsed payload; nil when it has no `aps` object.
    public init?(payload: JSONValue) {
        guard let aps = payload["aps"], case .object(let members) = aps else { return nil }
        self.init(aps: aps, members: APSMembers(members))
    }

    /// The fields of `aps` (an object) from its members, already found.
    init(aps: JSONValue, members: borrowing APSMembers) {
        self.aps = aps
        event = members.event.flatMap(Self.event)
        timestamp = members.timestamp?.doubleValue
        contentState = members.contentState
        attributesType = members.attributesType.flatMap(Self.string)
        attributes = members.attributes
        hasAlert = Self.isPresent(members.alert)
        staleDate = members.staleDate?.doubleValue
        dismissalDate = members.dismissalDate?.doubleValue
        relevanceScore = members.relevanceScore?.doubleValue
        hasInputPushToken = Self.isPresent(members.inputPushToken)
        inputPushChannel = members.inputPushChannel.flatMap(Self.string)
    }

    /// Whether a member is present and not `null` (a tag test, not `JSONValue`'s `==`).
    private static func isPresent(_ value: JSONValue?) -> Bool {
        switch value {
        case .none, .some(.null): false
        default: true
        }
    }

    /// `LiveActivityEvent(rawValue:)` of a string value, told apart by length and then compared (the raw-value
    /// initializer goes through the runtime's string switch, ~200 instructions a push).
    private static func event(_ value: JSONValue) -> LiveActivityEvent? {
        guard case .string(let text) = value else { return nil }
        let event: LiveActivityEvent
        switch text.utf8.count {
        case 6: event = .update
        case 5: event = .start
        case 3: event = .end
        default: return nil
        }
        return text == event.rawValue ? event : nil
    }

    private static func string(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }
}
