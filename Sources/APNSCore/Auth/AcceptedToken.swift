/// One connection's memo of its last accepted provider token: senders reuse one token for 20–60 minutes on a
/// connection (A-TOKEN), so most requests repeat the previous one's `authorization` header exactly.
///
/// It holds for a request only when everything the accepting evaluation read is provably unchanged: the same
/// first `authorization` value (so the same token), environment and topic; no change to the key registry (keys,
/// revisions, bundle IDs) and no entry removed from or replaced in the shared verification cache since (so a
/// lookup would find the same entry, a re-verification would not happen); and the token's cache entry not yet
/// expired at the request's time. The connection's binding cannot have moved either: only an accepted request
/// changes it, and the memo is rebuilt by every evaluation that does not use it. The time rule (`iat` older than
/// the token lifetime → `ExpiredProviderToken`) is not memoised: it is judged against each request's time.
///
/// A class: the authenticator holds it across requests and reads it on every one, so a request takes one reference
/// to it instead of copying its strings.
final class AcceptedToken {
    let authorization: String
    let environment: APNsEnvironment
    let topic: String?
    let verified: VerifiedToken
    /// `verified.sender`, made once for every request the memo answers.
    let sender: AuthenticatedSender
    /// When the token's verification cache entry expires; past it, a lookup would drop the entry.
    let cachedUntil: Timestamp
    /// The topic check's warning (`auth-topic-unchecked`), nil when it had none.
    let topicWarning: PushWarning?
    let registryChanges: UInt64
    let cacheRemovals: UInt64

    init(
        authorization: String, environment: APNsEnvironment, topic: String?, verified: VerifiedToken,
        cachedUntil: Timestamp, topicWarning: PushWarning?, registryChanges: UInt64, cacheRemovals: UInt64
    ) {
        self.authorization = authorization
        self.environment = environment
        self.topic = topic
        self.verified = verified
        self.sender = verified.sender
        self.cachedUntil = cachedUntil
        self.topicWarning = topicWarning
        self.registryChanges = registryChanges
        self.cacheRemovals = cacheRemovals
    }

    func stillHolds(for request: AuthRequest, registry: SigningKeyRegistry, cache: VerifiedTokenCache) -> Bool {
        request.now < cachedUntil && request.environment == environment && request.topic == topic
            && request.firstAuthorization == authorization
            && registry.changeCount == registryChanges && cache.removalCount == cacheRemovals
    }
}
