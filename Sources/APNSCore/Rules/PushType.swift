/// The values of the `apns-push-type` request header for device pushes, spelled as APNs expects them (lower case).
///
/// Source: A-SEND (header table and push-type list), A-SEND.
public enum PushType: String, Sendable, Codable, CaseIterable, Hashable {
    case alert
    case background
    case location
    case voip
    case complication
    case fileprovider
    case mdm
    case liveactivity
    case pushtotalk
    case widgets
    case controls

    /// The push type spelled exactly `rawValue`, else nil (as the synthesized initializer, which compared the value
    /// with each case's spelling in turn): the length and first byte pick the one candidate compared.
    public init?(rawValue: String) {
        let utf8 = rawValue.utf8
        let candidate: PushType
        switch utf8.count {
        case 3: candidate = .mdm
        case 4: candidate = .voip
        case 5: candidate = .alert
        case 7: candidate = .widgets
        case 8: candidate = utf8.first == UInt8(ascii: "l") ? .location : .controls
        case 10: candidate = utf8.first == UInt8(ascii: "b") ? .background : .pushtotalk
        case 12:
            switch utf8.first {
            case UInt8(ascii: "l"): candidate = .liveactivity
            case UInt8(ascii: "c"): candidate = .complication
            default: candidate = .fileprovider
            }
        default: return nil
        }
        guard rawValue == candidate.rawValue else { return nil }
        self = candidate
    }

    /// What `apns-topic` must end with for this push type; empty when the topic is the bare bundle ID.
    ///
    /// Source: A-SEND (push-type table), A-SEND. Apple's page writes `h.complication` for
    /// complications, a typo; client libraries use `.complication` (APNSwift `APNSPushType.swift`). `mdm` takes
    /// the topic from the MDM certificate's UID, which has no fixed suffix.
    public var topicSuffix: String {
        switch self {
        case .alert, .background, .mdm: return ""
        case .location: return ".location-query"
        case .voip: return ".voip"
        case .complication: return ".complication"
        case .fileprovider: return ".pushkit.fileprovider"
        case .liveactivity: return ".push-type.liveactivity"
        case .pushtotalk: return ".voip-ptt"
        case .widgets: return ".push-type.widgets"
        case .controls: return ".push-type.controls"
        }
    }

    /// The largest body APNs accepts for this push type, in bytes: 5120 for VoIP, 4096 for everything else.
    ///
    /// Source: A-SEND, A-GEN ("For VoIP notifications, the maximum payload size is 5 KB (5120 bytes). For all other
    /// remote notifications, the maximum payload size is 4 KB (4096 bytes)"), A-GEN.
    public var payloadLimit: Int {
        self == .voip ? 5120 : 4096
    }

    /// Push types APNs accepts only on token-based (JWT) connections.
    ///
    /// Source: A-SEND (`location`: "token-based authentication only"), A-LA and WWDC23 10185 ("Token-based connection
    /// only"), DTS in F-712499 ("Certificate-based authentication is not supported for these APNs pushes").
    public var requiresTokenAuthentication: Bool {
        self == .liveactivity || self == .location
    }

    /// The push type whose topic suffix `topic` ends with, if any (the longest suffix wins). Byte-wise on UTF-8.
    public static func implied(byTopic topic: String) -> PushType? {
        implied(byTopicBytes: topic.utf8.span)
    }

    /// `implied(byTopic:)` over the topic's UTF-8 bytes.
    static func implied(byTopicBytes topic: Span<UInt8>) -> PushType? {
        guard !topic.isEmpty else { return nil }
        let last = topic[topic.count - 1]
        for (pushType, suffix) in suffixedByLongestSuffix where suffix.last == last && topic.count >= suffix.count {
            if ByteScan.equal(topic.extracting((topic.count - suffix.count)...), suffix.span) { return pushType }
        }
        return nil
    }

    /// Every push type with a topic suffix and the suffix's bytes, longest suffix first.
    static let suffixedByLongestSuffix: [(pushType: PushType, suffix: [UInt8])] = allCases
        .filter { !$0.topicSuffix.isEmpty }
        .sorted { $0.topicSuffix.utf8.count > $1.topicSuffix.utf8.count }
        .map { ($0, Array($0.topicSuffix.utf8)) }
}
