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

    public func evaluate(
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
        if let strict = strictRejection(for: evaluation.warnings) {
            return Verdict(
                status: strict.rejection.status, reason: Reason(rawValue: strict.rejection.wireReason),
                wireReason: strict.rejection.wireReason, warnings: evaluation.warnings,
                explanation: "strict mode (the mock's rule, not APNs'): " + strict.warning.message,
                ruleID: "strict.\(strict.warning.code)", isStrictMockAnswer: true, sender: evaluation.sender,
                environment: evaluation.environment, facts: evaluation.facts,
                payload: evaluation.payload)
        }
        return Verdict(
            status: 200, warnings: evaluation.warnings, sender: evaluation.sender, environment: evaluation.environment,
            facts: evaluation.facts, payload: evaluation.payload)
    }

    /// The first warning, in rule order, that the configuration makes strict.
    private func strictRejection(for warnings: [PushWarning]) -> (warning: PushWarning, rejection: StrictRejection)? {
        for warning in warnings {
            if let rejection = configuration.strictRejection(for: warning.code) {
                return (warning, rejection)
            }
        }
        return nil
    }
}
