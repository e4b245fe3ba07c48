extension PushRule {
    /// The token in `:path` must be hexadecimal bytes, else `400 BadDeviceToken`.
    ///
    /// Source: A-SEND (":path … hexadecimal bytes", "Don't make assumptions about device token size"), A-RESP
    /// (`BadDeviceToken`), A-REG (64, 108 and 160 hex digits observed; never assume 64).
    public static let tokenFormat = PushRule(id: "token.format") { evaluation in
        let token = evaluation.facts.deviceToken ?? ""
        let maximum = evaluation.configuration.maximumDeviceTokenHexLength
        let scan = evaluation.deviceTokenHexScan()
        if let problem = DeviceTokenFormat.problem(with: token, scan: scan, maximumHexLength: maximum) {
            return RuleRejection(.badDeviceToken, problem)
        }
        return nil
    }

    /// With declared tokens, an undeclared token is `400 BadDeviceToken` (a token APNs never issued, A-RESP) unless
    /// `RuleConfiguration.undeclaredTokens` accepts it with the warning `undeclared-device-token`. An empty registry
    /// accepts every well-formed token.
    public static let tokenDeclared = PushRule(id: "token.declared") { evaluation in
        let token = evaluation.facts.deviceToken ?? ""
        switch evaluation.tokens.lookup(token) {
        case .registryEmpty:
            return nil
        case .declared(let declared):
            evaluation.declaredToken = declared
            return nil
        case .undeclared:
            switch evaluation.configuration.undeclaredTokens {
            case .reject:
                return RuleRejection(
                    .badDeviceToken,
                    "this token is not declared, and declaring any device token makes every undeclared one "
                        + "BadDeviceToken (as APNs answers for a token it never issued): declarations exist in the "
                        + "configuration's \"tokens\" or from POST /api/config/tokens. Declare this token too, or set "
                        + "\"rules\": {\"undeclaredTokens\": \"warn\"} to accept undeclared tokens with a warning")
            case .acceptWithWarning:
                evaluation.warn(
                    .undeclaredDeviceToken,
                    "the device token is not declared; real APNs answers BadDeviceToken for tokens it never issued")
                return nil
            }
        }
    }

    /// A declared token from the other environment is `400 BadDeviceToken`.
    ///
    /// Source: A-RESP ("verify … that it matches the environment"), DTS in F-807380; A-REG.
    public static let tokenEnvironment = PushRule(id: "token.environment") { evaluation in
        guard let declared = evaluation.declaredToken, declared.environment != evaluation.environment else {
            return nil
        }
        return RuleRejection(
            .badDeviceToken,
            "the device token belongs to the \(declared.environment.rawValue) environment; this push went to "
                + "\(evaluation.environment.rawValue). Send it to the \(declared.environment.rawValue) host")
    }

    /// A declared token pushed with a topic other than its bundle ID plus its kind's suffix is
    /// `400 DeviceTokenNotForTopic`.
    ///
    /// Source: A-RESP (`DeviceTokenNotForTopic`), DTS in F-807380 ("different bundle/topic, or wrong target: app vs.
    /// Live Activity vs. VoIP"), F-712499; A-REG.
    public static let tokenTopic = PushRule(id: "token.topic") { evaluation in
        guard let declared = evaluation.declaredToken, let topic = evaluation.facts.topic else { return nil }
        let expected = declared.topicSuffixes.map { declared.bundleID + $0 }.sorted()
        guard !expected.contains(topic) else { return nil }
        return RuleRejection(
            .deviceTokenNotForTopic,
            "this \(declared.kind.label) token belongs to topic \(expected.joined(separator: " or ")); got \(topic)")
    }

    /// A declared token that is no longer active answers `410 Unregistered` or `410 ExpiredToken` with the integer
    /// millisecond `timestamp` of when it stopped being valid.
    ///
    /// Source: A-RESP (410 reasons; `timestamp` "only when the error in the :status field is 410"), DTS in F-745902
    /// and F-806522, APNSwift PR #231 (`ExpiredToken` for Live Activity tokens); A-RESP, A-REG.
    public static let tokenActive = PushRule(id: "token.active") { evaluation in
        guard let declared = evaluation.declaredToken else { return nil }
        switch declared.state {
        case .active:
            return nil
        case .unregistered(let at):
            return RuleRejection(
                .unregistered, "the device token is no longer active for this topic; stop sending to it",
                timestamp: at.millisecondsSinceEpoch)
        case .expired(let at):
            return RuleRejection(
                .expiredToken, "the device token has expired; use the app's newest token",
                timestamp: at.millisecondsSinceEpoch)
        }
    }
}

extension DeviceTokenKind {
    /// Words for explanations.
    var label: String {
        switch self {
        case .device: return "device"
        case .liveActivityUpdate: return "Live Activity update"
        case .pushToStart: return "Live Activity push-to-start"
        case .voip: return "VoIP"
        case .other(let suffix): return "\(suffix)"
        }
    }
}
