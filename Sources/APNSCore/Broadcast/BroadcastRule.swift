import APNSJSON

/// One named broadcast / channel-management rule. `appliesTo` says for which operations it runs; the order is
/// `BroadcastRule.order` (docs/broadcast.md "Check order").
public struct BroadcastRule: Sendable {
    public let id: String
    public let appliesTo: Set<BroadcastOperation>
    private let check: @Sendable (inout BroadcastEvaluation) -> RuleRejection?

    public init(
        id: String, appliesTo: Set<BroadcastOperation>,
        check: @escaping @Sendable (inout BroadcastEvaluation) -> RuleRejection?
    ) {
        self.id = id
        self.appliesTo = appliesTo
        self.check = check
    }

    public func apply(to evaluation: inout BroadcastEvaluation) -> RuleRejection? {
        guard appliesTo.contains(evaluation.route.operation) else { return nil }
        return check(&evaluation)
    }

    static let all = Set(BroadcastOperation.allCases)

    /// The check order. Apple documents only "authentication first, then the channel id, then delivery"
    /// (A-BSEND); the rest is the mock's choice: the path's bundle ID, authentication, the capability, the
    /// request id, then the channel, then headers, then the body.
    public static let order: [BroadcastRule] = [
        topicSuffix, authentication, featureEnabled, requestID,
        channelIDPresent, channelIDEncoding, channelRegistered,
        pushTypePresent, pushTypeValue, priority, expirationFormat, expirationPolicy,
        bodyPresent, bodySize, bodyJSON, createUnknownKeys, createStoragePolicy, createPushType, channelLimit,
        sendAdvice,
    ]
}
