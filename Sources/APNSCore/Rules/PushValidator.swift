/// Judges device pushes (`POST /3/device/<token>`) and answers what APNs answers. No sockets, files or clock:
/// time is an input. Not pure: the `ConnectionAuthenticator` it is given may verify a signature and remember the
/// verified token (its cache is shared, behind a lock), so the same request can be answered faster the next time.
///
/// Runs `rules` in order until one rejects; then applies strict mode, which may turn a warning into the mock's own
/// rejection (`Verdict.isStrictMockAnswer`). Sources and order: docs/rules.md.
public struct PushValidator: Sendable {
    public let configuration: RuleConfiguration
    public let tokens: DeviceTokenRegistry
    public let rules: [PushRule]

    public init(configuration: RuleConfiguration, tokens: DeviceTokenRegistry) {
        self.init(configuration: configuration, tokens: tokens, rules: PushRule.deviceOrder)
    }

    /// A validator with another rule list, e.g. `PushRule.deviceOrder` plus Live Activity payload rules.
    public init(configuration: RuleConfiguration, tokens: DeviceTokenRegistry, rules: [PushRule]) {
        self.configuration = configuration
        self.tokens = tokens
        self.rules = rules
    }

    /// The rules' answer with strict mode applied to the rules' own warnings (the push pipeline applies strict
    /// mode itself, after the Live Activity device has added its warnings).
    public func evaluate(
        _ request: HTTPRequest, authenticator: (any ConnectionAuthenticator)?, now: Timestamp
    ) -> Verdict {
        applyingStrictMode(to: evaluateRules(request, authenticator: authenticator, now: now))
    }

    /// The rules' answer alone: the first rejection, else 200 with every warning. Strict mode is not applied.
    public func evaluateRules(
        _ request: HTTPRequest, authenticator: (any ConnectionAuthenticator)?, now: Timestamp
    ) -> Verdict {
        var evaluation = PushEvaluation(
            request: request, configuration: configuration, tokens: tokens, authenticator: authenticator, now: now)
        for rule in rules {
            if let rejection = rule.apply(to: &evaluation) {
                return Verdict(
                    status: rejection.reason.status, reason: rejection.reason, wireReason: rejection.reason.rawValue,
                    timestamp: rejection.reason.status == 410 ? rejection.timestamp : nil,
                    warnings: evaluation.warnings, explanation: rejection.explanation, ruleID: rule.id,
                    sender: evaluation.sender, environment: evaluation.environment, facts: evaluation.facts,
                    payload: evaluation.payload)
            }
        }
        return Verdict(
            status: 200, warnings: evaluation.warnings, sender: evaluation.sender, environment: evaluation.environment,
            facts: evaluation.facts, payload: evaluation.payload)
    }

    /// An accepted verdict turned into the mock's strict rejection when one of its warnings is strict; any other
    /// verdict unchanged.
    public func applyingStrictMode(to verdict: Verdict) -> Verdict {
        guard verdict.isAccepted, let strict = strictRejection(for: verdict.warnings) else { return verdict }
        var rejected = verdict
        rejected.status = strict.rejection.status
        rejected.reason = Reason(rawValue: strict.rejection.wireReason)
        rejected.wireReason = strict.rejection.wireReason
        rejected.explanation = "strict mode (the mock's rule, not APNs'): " + strict.warning.message
        rejected.ruleID = "strict.\(strict.warning.code)"
        rejected.isStrictMockAnswer = true
        return rejected
    }

    /// The first warning, in order, that the configuration makes strict.
    public func strictRejection(for warnings: [PushWarning]) -> (warning: PushWarning, rejection: StrictRejection)? {
        for warning in warnings {
            if let rejection = configuration.strictRejection(for: warning.code) {
                return (warning, rejection)
            }
        }
        return nil
    }
}
