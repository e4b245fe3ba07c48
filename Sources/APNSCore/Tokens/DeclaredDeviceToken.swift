/// A device token the mock knows about: whom it belongs to, what it is for, where it is valid and whether it is
/// still active. Source for the semantics: A-RESP, DTS in F-807380, F-745902, F-806522; A-REG.
public struct DeclaredDeviceToken: Sendable, Codable, Hashable {
    /// Hex digits, stored lower-case (lookups ignore case: A-REG, case sensitivity unknown, accept both).
    public var token: String
    /// The app's bundle ID, without push-type suffix (`com.example.app`).
    public var bundleID: String
    public var kind: DeviceTokenKind
    /// The environment that issued the token; the other environment answers `BadDeviceToken` (A-RESP, F-807380).
    public var environment: APNsEnvironment
    public var state: DeviceTokenState

    public init(
        token: String, bundleID: String, kind: DeviceTokenKind = .device, environment: APNsEnvironment = .development,
        state: DeviceTokenState = .active
    ) {
        self.token = token.lowercased()
        self.bundleID = bundleID
        self.kind = kind
        self.environment = environment
        self.state = state
    }

    /// The topic suffix pushes to this token must carry (the token "target", F-807380).
    public var topicSuffixes: Set<String> {
        switch kind {
        case .device: return [""]
        case .liveActivityUpdate, .pushToStart: return [PushType.liveactivity.topicSuffix]
        case .voip: return [PushType.voip.topicSuffix]
        case .other(let suffix): return [suffix]
        }
    }
}

/// What a token was issued for; each kind takes its own topic (F-807380: "wrong target (app vs. Live Activity vs.
/// VoIP)").
public enum DeviceTokenKind: Sendable, Codable, Hashable {
    /// `registerForRemoteNotifications` token: alert and background pushes to the bare bundle ID.
    case device
    /// A per-activity Live Activity update token (`Activity.pushToken`), topic `<bundle>.push-type.liveactivity`.
    case liveActivityUpdate
    /// A push-to-start token (`Activity.pushToStartToken`), topic `<bundle>.push-type.liveactivity`.
    case pushToStart
    /// A PushKit VoIP token, topic `<bundle>.voip`.
    case voip
    /// Any other target, by topic suffix (e.g. `.push-type.widgets`, `.complication`).
    case other(topicSuffix: String)
}

/// Whether APNs still delivers to the token.
public enum DeviceTokenState: Sendable, Codable, Hashable {
    case active
    /// `410 Unregistered`, with the time APNs learned the token was inactive (A-RESP).
    case unregistered(at: Timestamp)
    /// `410 ExpiredToken` (APNSwift PR #231: expired Live Activity tokens).
    case expired(at: Timestamp)
}
