/// Who sent a push, as the authenticator established it from the provider token. Goes into the verdict and the
/// delivery record.
public struct AuthenticatedSender: Sendable, Hashable, Codable {
    /// The JWT `iss` claim (Apple team ID).
    public var teamID: String
    /// The JWT `kid` header (key ID).
    public var keyID: String
    /// A stable, non-secret fingerprint of the token (e.g. a hash), so records can show token changes.
    public var tokenFingerprint: String
    /// The decoded JWT header, as JSON text.
    public var headerJSON: String
    /// The decoded JWT claims, as JSON text.
    public var claimsJSON: String

    public init(teamID: String, keyID: String, tokenFingerprint: String, headerJSON: String, claimsJSON: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.tokenFingerprint = tokenFingerprint
        self.headerJSON = headerJSON
        self.claimsJSON = claimsJSON
    }
}

/// The authenticator's answer for one request.
public enum AuthDecision: Sendable {
    /// The provider token is good for this request; `warnings` are accepted-but-suspicious findings (e.g. a string
    /// `iat`).
    case accepted(AuthenticatedSender, warnings: [PushWarning])
    /// APNs would refuse the request: `MissingProviderToken`, `InvalidProviderToken`, `ExpiredProviderToken`,
    /// `UnrelatedKeyIdInToken`, `BadEnvironmentKeyIdInToken`/`BadEnvironmentKeyInToken`,
    /// `TooManyProviderTokenUpdates`, `TopicDisallowed` (topic not allowed for the team or key) …
    /// `token` is what was read of the refused token (nil when there was none to read), for the record.
    case rejected(Reason, explanation: String, token: PresentedToken? = nil)
}

/// What the authenticator sees of a request. The validator has already checked path, method and header sanity
/// (docs/rules.md check order), so `pushType` is a known value when present.
public struct AuthRequest: Sendable {
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    /// The first `authorization` value (the one a provider token is read from), nil when the header is absent.
    public var firstAuthorization: Optional<String>
    /// The values after the first, when the header is repeated: usually empty, so a request carries no array.
    public var laterAuthorization: [String]
    /// Every value of the `authorization` header, in arrival order (the authenticator decides about repeats).
    public var authorization: [String] {
        get { firstAuthorization.map { [$0] + laterAuthorization } ?? [] }
        set {
            firstAuthorization = newValue.first
            laterAuthorization = Array(newValue.dropFirst())
        }
    }
    /// `apns-topic` as sent; nil when absent (the validator answers `MissingTopic` after authentication).
    public var topic: Optional<String>
    public var pushType: Optional<PushType>
    public var environment: APNsEnvironment
    public var now: Timestamp

    public init(
        authorization: [String], topic: String?, pushType: PushType?, environment: APNsEnvironment, now: Timestamp
    ) {
        self.init(
            firstAuthorization: authorization.first, laterAuthorization: Array(authorization.dropFirst()), topic: topic,
            pushType: pushType, environment: environment, now: now)
    }

    /// A request whose `authorization` values are `firstAuthorization` and then `laterAuthorization`.
    public init(
        firstAuthorization: String?, laterAuthorization: [String] = [], topic: String?, pushType: PushType?,
        environment: APNsEnvironment, now: Timestamp
    ) {
        precondition(firstAuthorization != nil || laterAuthorization.isEmpty)
        self.firstAuthorization = firstAuthorization
        self.laterAuthorization = laterAuthorization
        self.topic = topic
        self.pushType = pushType
        self.environment = environment
        self.now = now
    }
}

/// Token-based authentication for one connection: step 4 of the rule order (after header sanity, before topic
/// rules). Source: A-TOKEN and docs/rules.md check order.
///
/// Per-connection and stateful (the first key ID binds the connection, token-update rate rules). Called on one
/// thread. A validator given no authenticator treats the push as certificate-authenticated.
public protocol ConnectionAuthenticator: AnyObject {
    func authenticate(_ request: AuthRequest) -> AuthDecision
    /// True once a request on this connection carried a valid token (APNs then allows more streams).
    var hasAuthenticated: Bool { get }
}
