/// Provider-token authentication for one HTTP/2 connection, applying APNs' rules in this order:
///
/// 1. `authorization` missing, empty or not `bearer <token>` → `403 MissingProviderToken`.
/// 2. Not a verifiable ES256 token by a known `kid` of the `iss` team → `403 InvalidProviderToken`
///    (`ProviderTokenVerification`; cached across connections in `VerifiedTokenCache`).
/// 3. `iat` older than one hour → `403 ExpiredProviderToken`; further in the future than the tolerance →
///    `403 InvalidProviderToken`.
/// 4. Key not allowed in this environment → `403 BadEnvironmentKeyIdInToken` (or the observed
///    `BadEnvironmentKeyInToken`).
/// 5. On a bound connection: another team → `403 InvalidProviderToken`; a key unrelated to the first push's key →
///    `403 UnrelatedKeyIdInToken`; a new token sooner than 20 minutes after the previous one was first seen →
///    `429 TooManyProviderTokenUpdates` (the connection keeps its previous token).
/// 6. The topic's bundle ID not the team's (or, for a topic-specific key, not the key's), or added to the team
///    after the connection was bound → `400 TopicDisallowed`.
///
/// The first request whose token passes 1–4 binds the connection to its team, key and the team's bundle IDs
/// (`hasAuthenticated` turns true: the transport then raises MAX_CONCURRENT_STREAMS from 1 to 1000).
/// Source: A-TOKEN, A-RESP, A-SEND ("APNs allows only one stream until you post a request with a valid
/// authentication token"), [DTS] F-675879, [OBS] F-687789, pushy#931; A-CONN, A-TOKEN.
///
/// Not thread-safe: one instance per connection, used by that connection's owner.
public final class ProviderTokenAuthenticator: ConnectionAuthenticator {
    /// What the connection is bound to after its first valid token.
    public struct Binding: Sendable {
        public var teamID: String
        /// The key of the first push; later keys must be related to it.
        public var firstKey: SigningKey
        /// The team's bundle IDs when the connection was bound.
        public var bundleIDs: Set<String>
        /// The token in use and when the mock first saw it.
        public var currentToken: String
        public var currentTokenFirstSeen: Timestamp
        /// How many times the connection switched tokens.
        public var tokenSwitches: Int
    }

    public let registry: SigningKeyRegistry
    public let cache: VerifiedTokenCache
    public let policy: ProviderTokenPolicy
    public private(set) var binding: Binding? {
        didSet { hasAuthenticated = binding != nil }
    }
    /// The last request's credential when it was accepted, and what it was judged on (see `AcceptedToken`).
    private var lastAccepted: AcceptedToken?

    /// True once a request on this connection carried a valid token (stored: the pipeline asks on every push, and
    /// reading `binding` would copy it).
    public private(set) var hasAuthenticated = false

    public init(registry: SigningKeyRegistry, cache: VerifiedTokenCache, policy: ProviderTokenPolicy = .init()) {
        self.registry = registry
        self.cache = cache
        self.policy = policy
    }

    public func authenticate(_ request: AuthRequest) -> AuthDecision {
        switch evaluate(request) {
        case .success(let (sender, warnings)): .accepted(sender, warnings: warnings)
        case .failure(let rejection):
            .rejected(rejection.reason, explanation: rejection.explanation, token: rejection.token)
        }
    }

    private func evaluate(_ request: AuthRequest) -> Result<(AuthenticatedSender, [PushWarning]), AuthRejection> {
        if let memo = lastAccepted, memo.stillHolds(for: request, registry: registry, cache: cache) {
            return evaluateUnchanged(memo, now: request.now)
        }
        lastAccepted = nil
        // Read before anything they guard, so a change made while this request is judged voids the memo.
        let registryChanges = registry.changeCount
        let cacheRemovals = cache.removalCount
        let token: Substring
        switch BearerCredential.token(in: request.firstAuthorization) {
        case .success(let value): token = value
        case .failure(let failure):
            return .failure(AuthRejection(reason: .missingProviderToken, explanation: failure.explanation))
        }
        let verified: VerifiedToken
        let key: SigningKey
        let cachedUntil: Timestamp?
        switch verifiedToken(token, now: request.now) {
        case .success(let value): (verified, key, cachedUntil) = value
        case .failure(let rejection): return .failure(rejection)
        }
        var warnings = verified.warnings
        var topicWarning: PushWarning?
        do {
            if let warning = try checkIssuedAt(verified.issuedAt, now: request.now) { warnings.append(warning) }
            try checkEnvironment(key, request.environment)
            try checkBinding(token: token, verified: verified, key: key, now: request.now)
            if let topic = request.topic, let warning = try checkTopic(topic, key: key) {
                warnings.append(warning)
                topicWarning = warning
            }
        } catch {
            return .failure(error.presenting(PresentedToken(verified)))
        }
        if let cachedUntil, let authorization = request.firstAuthorization {
            lastAccepted = AcceptedToken(
                authorization: authorization, environment: request.environment, topic: request.topic,
                verified: verified, cachedUntil: cachedUntil, topicWarning: topicWarning,
                registryChanges: registryChanges, cacheRemovals: cacheRemovals)
        }
        return .success((verified.sender, warnings))
    }

    /// The answer for a request that repeats the memo's credential and topic while nothing it was judged on has
    /// changed: the verification, environment, binding and topic checks all gave what they gave then, so only the
    /// time rule, which moves with `now`, is judged again.
    private func evaluateUnchanged(
        _ memo: AcceptedToken, now: Timestamp
    ) -> Result<(AuthenticatedSender, [PushWarning]), AuthRejection> {
        var warnings = memo.verified.warnings
        do {
            if let warning = try checkIssuedAt(memo.verified.issuedAt, now: now) { warnings.append(warning) }
        } catch {
            lastAccepted = nil
            return .failure(error.presenting(PresentedToken(memo.verified)))
        }
        if let topicWarning = memo.topicWarning { warnings.append(topicWarning) }
        return .success((memo.sender, warnings))
    }

    /// The cached verification of `token`, or a fresh one (then cached), with when its cache entry expires (nil:
    /// not cached). A cached entry counts only while the key that verified it is still registered unchanged.
    private func verifiedToken(
        _ token: Substring, now: Timestamp
    ) -> Result<(VerifiedToken, SigningKey, Timestamp?), AuthRejection> {
        if let cached = cache.entry(for: token, now: now), let entry = registry.entry(forKeyID: cached.token.keyID),
            entry.revision == cached.token.keyRevision
        {
            return .success((cached.token, entry.key, cached.expiresAt))
        }
        switch ProviderTokenVerification.verify(token, registry: registry, now: now) {
        case .failure(let rejection):
            return .failure(rejection)
        case .success(let fresh):
            guard let entry = registry.entry(forKeyID: fresh.keyID) else {
                return .failure(.invalid("key \(fresh.keyID) was removed while the token was being verified"))
            }
            let expiresAt = Timestamp(secondsSinceEpoch: fresh.issuedAt.seconds + policy.tokenLifetime)
            guard now < expiresAt else { return .success((fresh, entry.key, nil)) }
            let cached = cache.insertEntry(fresh, for: token, expiresAt: expiresAt, now: now)
            return .success((cached.token, entry.key, cached.expiresAt))
        }
    }

    /// The one-hour rule (A-TOKEN: "APNs rejects tokens older than one hour") and the future tolerance.
    private func checkIssuedAt(_ issuedAt: IssuedAt, now: Timestamp) throws(AuthRejection) -> PushWarning? {
        let issued = issuedAt.seconds
        let age = now.secondsSinceEpoch - issued
        var iatText: String { Self.describe(issuedAt) }  // only for a message: not built per push
        if age > policy.tokenLifetime {
            throw AuthRejection(
                reason: .expiredProviderToken,
                explanation: "iat \(iatText) is \(DurationText.describe(seconds: age)) old; APNs rejects tokens "
                    + "older than \(DurationText.describe(seconds: policy.tokenLifetime)): sign a new token "
                    + "(refresh every 20–60 minutes, e.g. at 50)")
        }
        let ahead = -age
        if ahead > policy.futureIssuedAtTolerance {
            throw AuthRejection.invalid(
                "iat \(iatText) is \(DurationText.describe(seconds: ahead)) in the future; the mock accepts at most "
                    + "\(DurationText.describe(seconds: policy.futureIssuedAtTolerance)): set iat to the current "
                    + "time and check the sender's clock")
        }
        if ahead > policy.futureIssuedAtWarningThreshold {
            return PushWarning(
                code: AuthWarningCode.issuedAtInFuture.rawValue,
                message: "iat \(iatText) is \(DurationText.describe(seconds: ahead)) in the future; the sender's "
                    + "clock may be ahead, and APNs' tolerance for future iat is not documented")
        }
        return nil
    }

    /// Keys restricted to one environment (team-scoped keys since 2025). Source: A-TOKEN, A-RESP,
    /// [OBS] APNSwift PR #229.
    private func checkEnvironment(_ key: SigningKey, _ environment: APNsEnvironment) throws(AuthRejection) {
        guard !key.environment.allows(environment) else { return }
        throw AuthRejection(
            reason: policy.environmentMismatchReason.reason,
            explanation: "key \(key.keyID) may be used only in \(key.environment.rawValue), and this connection "
                + "is to the \(environment.rawValue) environment: use a \(environment.rawValue) key, or send to "
                + "the \(key.environment.rawValue) endpoint")
    }

    /// One team per connection, related keys only, and at most one token change per update interval.
    private func checkBinding(
        token: Substring, verified: VerifiedToken, key: SigningKey, now: Timestamp
    ) throws(AuthRejection) {
        guard var bound = binding else {
            binding = Binding(
                teamID: key.teamID, firstKey: key, bundleIDs: registry.bundleIDs(ofTeam: key.teamID),
                currentToken: String(token), currentTokenFirstSeen: verified.firstSeen, tokenSwitches: 0)
            return
        }
        guard key.teamID == bound.teamID else {
            throw AuthRejection.invalid(
                "this connection's first push bound it to team \(bound.teamID); a token of team \(key.teamID) "
                    + "cannot share it (APNs allows one team per connection): open a new connection for "
                    + "team \(key.teamID)")
        }
        guard bound.firstKey.isRelated(to: key) else {
            throw AuthRejection(
                reason: .unrelatedKeyIdInToken,
                explanation: "this connection's first push used \(Self.describeScope(bound.firstKey)) "
                    + "\(bound.firstKey.keyID); \(Self.describeScope(key)) \(key.keyID) is not related to it: "
                    + "open a new connection for tokens of \(key.keyID)")
        }
        guard token != bound.currentToken[...] else { return }
        let sincePrevious = now.secondsSinceEpoch - bound.currentTokenFirstSeen.secondsSinceEpoch
        if policy.tokenUpdateInterval > 0 && sincePrevious < policy.tokenUpdateInterval {
            let wait = policy.tokenUpdateInterval - sincePrevious
            throw AuthRejection(
                reason: .tooManyProviderTokenUpdates,
                explanation: "this connection switched to a new provider token \(DurationText.describe(seconds: sincePrevious)) "
                    + "after its previous token was first seen; APNs allows a new token at most once every "
                    + "\(DurationText.describe(seconds: policy.tokenUpdateInterval)) per connection: keep sending the "
                    + "previous token for \(DurationText.describe(seconds: wait)) more, reuse one token for 20–60 "
                    + "minutes (count from its first use, not its iat), or open a new connection")
        }
        bound.currentToken = String(token)
        bound.currentTokenFirstSeen = verified.firstSeen
        bound.tokenSwitches += 1
        binding = bound
    }

    /// The topic's bundle ID must be the team's (team-scoped key) or the key's (topic-specific key), and must
    /// have been the team's when the connection was bound. Source: A-TOKEN ("sending a push to a newly added
    /// bundle ID causes an error"), A-RESP `TopicDisallowed`, A-SEND, A-TOKEN.
    private func checkTopic(_ topic: String, key: SigningKey) throws(AuthRejection) -> PushWarning? {
        let bundleID = TopicBundleID.bundleID(fromTopic: topic)
        var shown: String {  // only for a message: not built per push
            bundleID == topic ? "topic \"\(topic)\"" : "topic \"\(topic)\" (bundle ID \"\(bundleID)\")"
        }
        if let topics = key.topics {
            guard topics.contains(bundleID) else {
                throw AuthRejection(
                    reason: .topicDisallowed,
                    explanation: "\(shown) is not one of the topics of topic-specific key \(key.keyID) "
                        + "(\(Self.list(topics))): sign with a key for this topic or fix apns-topic")
            }
            return nil
        }
        let teamBundleIDs = registry.bundleIDs(ofTeam: key.teamID)
        guard !teamBundleIDs.isEmpty else {
            return PushWarning(
                code: AuthWarningCode.topicUnchecked.rawValue,
                message: "team \(key.teamID) has no registered bundle IDs, so \(shown) was not checked; register "
                    + "them with --topic \(key.teamID):\(bundleID) to get APNs' TopicDisallowed for wrong topics")
        }
        guard teamBundleIDs.contains(bundleID) else {
            throw AuthRejection(
                reason: .topicDisallowed,
                explanation: "\(shown) is not a bundle ID of team \(key.teamID) (\(Self.list(teamBundleIDs))): "
                    + "fix apns-topic (bundle ID plus at most one push-type suffix) or register it with "
                    + "--topic \(key.teamID):\(bundleID)")
        }
        if let bound = binding, !bound.bundleIDs.isEmpty, !bound.bundleIDs.contains(bundleID) {
            throw AuthRejection(
                reason: .topicDisallowed,
                explanation: "bundle ID \"\(bundleID)\" was added to team \(key.teamID) after this connection's "
                    + "first push; APNs relates a team's bundle IDs to a connection on its first push: open a new "
                    + "connection")
        }
        return nil
    }

    private static func describe(_ issuedAt: IssuedAt) -> String {
        switch issuedAt {
        case .integer(let value): "\(value)"
        case .string(let text, _): "\"\(text.prefix(30))\""
        case .float(let value): "\(value)"
        }
    }

    private static func describeScope(_ key: SigningKey) -> String {
        key.topics == nil ? "team-scoped key" : "topic-specific key"
    }

    private static func list(_ items: Set<String>) -> String {
        let sorted = items.sorted()
        let shown = sorted.prefix(5).joined(separator: ", ")
        return sorted.count > 5 ? "\(shown), … \(sorted.count) in all" : shown
    }
}
