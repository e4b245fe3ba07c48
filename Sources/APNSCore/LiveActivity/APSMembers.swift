import APNSJSON

/// The members of a push's `aps` object that the Live Activity check reads, found in one pass over its members
/// (the first of duplicate keys wins, as `JSONValue`'s subscript and `JSONDecoder` read them), and whether any
/// member is not a key Apple documents. Replaces a dozen lookups that each scanned the members and compared
/// strings. Not copyable: it is read once per push and lent to the checks (a copy retained each member's value).
/// Source: A-GEN Table 1 (the keys), A-LA.
struct APSMembers: ~Copyable {
    var event: JSONValue?
    var timestamp: JSONValue?
    var contentState: JSONValue?
    var attributesType: JSONValue?
    var attributes: JSONValue?
    var alert: JSONValue?
    var staleDate: JSONValue?
    var dismissalDate: JSONValue?
    var relevanceScore: JSONValue?
    var inputPushToken: JSONValue?
    var inputPushChannel: JSONValue?
    /// Whether a member's key is not one of `LiveActivityPayloadChecker.knownAPSKeys`.
    var hasUnknownKey = false

    init(_ members: [JSONMember]) {
        // By index: a `for member in members` loop copies each member out (key and value retained, then released).
        for index in members.indices {
            guard let key = Key(members[index].key) else {
                // A key the check does not read: hashed only then (a Live Activity's aps has few such keys).
                if !hasUnknownKey && !LiveActivityPayloadChecker.knownAPSKeys.contains(members[index].key) {
                    hasUnknownKey = true
                }
                continue
            }
            switch key {
            case .event: if event == nil { event = members[index].value }
            case .timestamp: if timestamp == nil { timestamp = members[index].value }
            case .contentState: if contentState == nil { contentState = members[index].value }
            case .attributesType: if attributesType == nil { attributesType = members[index].value }
            case .attributes: if attributes == nil { attributes = members[index].value }
            case .alert: if alert == nil { alert = members[index].value }
            case .staleDate: if staleDate == nil { staleDate = members[index].value }
            case .dismissalDate: if dismissalDate == nil { dismissalDate = members[index].value }
            case .relevanceScore: if relevanceScore == nil { relevanceScore = members[index].value }
            case .inputPushToken: if inputPushToken == nil { inputPushToken = members[index].value }
            case .inputPushChannel: if inputPushChannel == nil { inputPushChannel = members[index].value }
            }
        }
    }

    /// An `aps` key the check reads, one per property above. Told apart by length first, then compared, without
    /// hashing.
    enum Key {
        case event, timestamp, contentState, attributesType, attributes, alert, staleDate, dismissalDate
        case relevanceScore, inputPushToken, inputPushChannel

        /// Nil when the check does not read `key`.
        init?(_ key: String) {
            switch key.utf8.count {
            case 5:
                if key == "event" { self = .event } else if key == "alert" { self = .alert } else { return nil }
            case 9:
                guard key == "timestamp" else { return nil }
                self = .timestamp
            case 10:
                if key == "attributes" { self = .attributes } else if key == "stale-date" { self = .staleDate }
                else { return nil }
            case 13:
                guard key == "content-state" else { return nil }
                self = .contentState
            case 14:
                guard key == "dismissal-date" else { return nil }
                self = .dismissalDate
            case 15:
                if key == "attributes-type" { self = .attributesType }
                else if key == "relevance-score" { self = .relevanceScore } else { return nil }
            case 16:
                guard key == "input-push-token" else { return nil }
                self = .inputPushToken
            case 18:
                guard key == "input-push-channel" else { return nil }
                self = .inputPushChannel
            default:
                return nil
            }
        }
    }
}
