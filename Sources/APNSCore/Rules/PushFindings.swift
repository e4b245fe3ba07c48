import APNSJSON

/// What the pipeline found out about one push, whatever the answer: the request facts, the warnings, the sender,
/// and why it was answered as it was. Every `Verdict` case holds one.
public struct PushFindings: Sendable, Hashable {
    /// Request facts as sent (nil fields when absent or not parseable).
    public var facts: PushFacts
    /// Accepted-but-probably-wrong findings, in rule order (also on rejections, from the rules that ran).
    public var warnings: [PushWarning]
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    /// What to change, in plain words; nil on a clean 200.
    public var explanation: Optional<String>
    /// The id of the rule that decided (`PushRule.id`, `strict.<code>`, `scripted`, `fault.<effect>`); nil on 200.
    public var ruleID: Optional<String>
    /// The token-authenticated sender; nil without token authentication or when rejected before it.
    public var sender: Optional<AuthenticatedSender>
    /// What authentication read of the provider token it refused (nil when it accepted one, or never ran).
    public var presentedToken: Optional<PresentedToken>
    /// The environment the push was judged in.
    public var environment: APNsEnvironment
    /// The body as the rules parsed it (nil when it is not JSON or the rules stopped before parsing), so later
    /// steps such as the Live Activity device reuse it instead of parsing the body again.
    public var payload: Optional<JSONValue>

    public init(
        facts: PushFacts = PushFacts(), warnings: [PushWarning] = [], explanation: String? = nil,
        ruleID: String? = nil, sender: AuthenticatedSender? = nil, presentedToken: PresentedToken? = nil,
        environment: APNsEnvironment = .development, payload: JSONValue? = nil
    ) {
        self.facts = facts
        self.warnings = warnings
        self.explanation = explanation
        self.ruleID = ruleID
        self.sender = sender
        self.presentedToken = presentedToken
        self.environment = environment
        self.payload = payload
    }
}
