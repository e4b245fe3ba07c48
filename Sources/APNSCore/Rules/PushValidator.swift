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
        // By position, each rule read in place; its check is a thin function (`PushRule.Check`), so running it
        // retains neither a closure context nor the id.
        for position in rules.indices {
            if let rejection = rules[position].apply(to: &evaluation) {
                return .rejected(
                    APNsRejection(rejection.reason, timestamp: rejection.timestamp),
                    evaluation.findings(explanation: rejection.explanation, ruleID: rules[position].id))
            }
        }
        return .accepted(evaluation.findings(explanation: nil, ruleID: nil))
    }

    /// An accepted verdict turned into the mock's strict rejection when one of its warnings is strict; any other
    /// verdict unchanged.
    public func applyingStrictMode(to verdict: Verdict) -> Verdict {
        // No strict code configured (the default): nothing to look up, and the warnings are not read.
        guard !configuration.strict.isEmpty, verdict.isAccepted, let strict = strictRejection(for: verdict.warnings)
        else { return verdict }
        var findings = verdict.findings
        findings.explanation = "strict mode (the mock's rule, not APNs'): " + strict.warning.message
        findings.ruleID = "strict.\(strict.warning.code)"
        return .mockAnswer(
            MockAnswer(
                origin: .strictMode(code: strict.warning.code), status: strict.rejection.status,
                wireReason: strict.rejection.wireReason),
            findings)
    }

    /// `applyingStrictMode(to:)` in place: with no strict code configured (the default) the verdict is not even
    /// copied.
    public func applyStrictMode(to verdict: inout Verdict) {
        guard !configuration.strict.isEmpty else { return }
        verdict = applyingStrictMode(to: verdict)
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

extension PushEvaluation {
    /// What the rules found, for the verdict. The facts, warnings, sender, refused token and payload are moved
    /// out (swapped, not copied: the evaluation ends here and would only release them).
    mutating func findings(explanation: String?, ruleID: String?) -> PushFindings {
        var fields = PushFindings.Fields(
            facts: PushFacts(), explanation: explanation, ruleID: ruleID, sender: nil, presentedToken: nil,
            environment: environment, payload: nil)
        swap(&fields.facts, &facts)
        swap(&fields.sender, &sender)
        swap(&fields.presentedToken, &presentedToken)
        swap(&fields.payload, &payload)
        var kept: [PushWarning] = []
        swap(&kept, &warnings)
        return PushFindings(fields, warnings: kept)
    }
}
