/// A flat JSON form shared by the configuration file, the admin API and the conformance cases:
/// `{"token": "…", "bundleID": "com.example.app", "kind": "device" | "liveActivityUpdate" | "pushToStart" | "voip" |
/// "other", "topicSuffix": "…" (kind other only), "environment": "development" | "production",
/// "state": "active" | "unregistered" | "expired", "stateSince": <ms since epoch> (unregistered/expired)}`.
/// `kind`, `environment` and `state` default to device, development and active.
extension DeclaredDeviceToken {
    private enum CodingKeys: String, CodingKey {
        case token, bundleID, kind, topicSuffix, environment, state, stateSince
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kindName = try container.decodeIfPresent(String.self, forKey: .kind) ?? "device"
        let kind: DeviceTokenKind
        switch kindName {
        case "device": kind = .device
        case "liveActivityUpdate": kind = .liveActivityUpdate
        case "pushToStart": kind = .pushToStart
        case "voip": kind = .voip
        case "other": kind = .other(topicSuffix: try container.decode(String.self, forKey: .topicSuffix))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "unknown token kind \(kindName)")
        }
        let stateName = try container.decodeIfPresent(String.self, forKey: .state) ?? "active"
        let since = { () throws -> Timestamp in
            let milliseconds = try container.decode(Int64.self, forKey: .stateSince)
            return Timestamp(nanosecondsSinceEpoch: milliseconds * 1_000_000)
        }
        let state: DeviceTokenState
        switch stateName {
        case "active": state = .active
        case "unregistered": state = .unregistered(at: try since())
        case "expired": state = .expired(at: try since())
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .state, in: container, debugDescription: "unknown token state \(stateName)")
        }
        self.init(
            token: try container.decode(String.self, forKey: .token),
            bundleID: try container.decode(String.self, forKey: .bundleID),
            kind: kind,
            environment: try container.decodeIfPresent(APNsEnvironment.self, forKey: .environment) ?? .development,
            state: state)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
        try container.encode(bundleID, forKey: .bundleID)
        switch kind {
        case .device: try container.encode("device", forKey: .kind)
        case .liveActivityUpdate: try container.encode("liveActivityUpdate", forKey: .kind)
        case .pushToStart: try container.encode("pushToStart", forKey: .kind)
        case .voip: try container.encode("voip", forKey: .kind)
        case .other(let suffix):
            try container.encode("other", forKey: .kind)
            try container.encode(suffix, forKey: .topicSuffix)
        }
        try container.encode(environment, forKey: .environment)
        switch state {
        case .active:
            try container.encode("active", forKey: .state)
        case .unregistered(let at):
            try container.encode("unregistered", forKey: .state)
            try container.encode(at.millisecondsSinceEpoch, forKey: .stateSince)
        case .expired(let at):
            try container.encode("expired", forKey: .state)
            try container.encode(at.millisecondsSinceEpoch, forKey: .stateSince)
        }
    }
}
