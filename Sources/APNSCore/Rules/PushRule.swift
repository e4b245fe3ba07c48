/// One named device-push rule: a small check over the evaluation that either passes (possibly recording facts and
/// warnings) or rejects. Rules are values so the order is data (`PushRule.deviceOrder`) and each rule is testable
/// alone. Every rule's doc comment cites its source.
public struct PushRule: Sendable {
    /// Stable identifier (`route.path`, `topic.push-type-suffix`, …), reported as `Verdict.ruleID`.
    public let id: String
    /// A thin function (no captured context): reading a rule out of the rule list to run it retains nothing (a
    /// closure's context and the id were retained and released for every rule of every push).
    private let check: Check
    /// A rule of `PushRule.topicShape` (`init(topicShape:check:)`): a flag read by `apply` rather than a closure
    /// wrapping `check`, which a thin function cannot be.
    private let isTopicShape: Bool

    /// A rule's check: a closure that captures nothing.
    public typealias Check = @convention(thin) (inout PushEvaluation) -> RuleRejection?

    public init(id: String, check: Check) {
        self.id = id
        self.check = check
        self.isTopicShape = false
    }

    /// A rule of `PushRule.topicShape`: pure (no warnings, no facts changed), so it passes at once for the topic
    /// authentication already found well-formed (`PushEvaluation.wellFormedTopic`).
    init(topicShape id: String, check: Check) {
        self.id = id
        self.check = check
        self.isTopicShape = true
    }

    /// Runs the rule; nil means "passes, go on".
    public func apply(to evaluation: inout PushEvaluation) -> RuleRejection? {
        if isTopicShape, let topic = evaluation.facts.topic, evaluation.wellFormedTopic == topic { return nil }
        return check(&evaluation)
    }
}

/// A rule's refusal: APNs' reason and what the sender should change.
public struct RuleRejection: Sendable, Hashable {
    public var reason: Reason
    public var explanation: String
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    /// Milliseconds since the epoch, for 410 answers only (A-RESP).
    public var timestamp: Optional<Int64>

    public init(_ reason: Reason, _ explanation: String, timestamp: Int64? = nil) {
        self.reason = reason
        self.explanation = explanation
        self.timestamp = timestamp
    }
}
