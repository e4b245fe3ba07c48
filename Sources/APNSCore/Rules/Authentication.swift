/// The identity a valid provider token established for a request. Source: A-TOKEN (apns-protocol.md §4.1).
public struct AuthenticatedSender: Sendable, Hashable, Codable {
    public var teamID: String
    public var keyID: String
    public var tokenFingerprint: String
    public var headerJSON: String
    public var claimsJSON: String

    public init(teamID: String, keyID: String, tokenFingerprint: String, headerJSON: String, claimsJSON: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.tokenFingerprint = tokenFingerprint
        self.headerJSON = headerJSON
        self.claimsJSON = claimsJSON
    }
}

/// What the authenticator decided about one request.
public enum AuthDecision: Sendable {
    case accepted(AuthenticatedSender, warnings: [PushWarning])
    case rejected(Reason, explanation: String)
}

/// The parts of a request that authentication looks at.
public struct AuthRequest: Sendable {
    public var authorization: [String]
    public var topic: String?
    public var pushType: PushType?
    public var environment: APNsEnvironment
    public var now: Timestamp

    public init(
        authorization: [String], topic: String?, pushType: PushType?, environment: APNsEnvironment, now: Timestamp
    ) {
        self.authorization = authorization
        self.topic = topic
        self.pushType = pushType
        self.environment = environment
        self.now = now
    }
}

/// Authenticates the requests of one connection; it keeps that connection's state (binding, current token).
public protocol ConnectionAuthenticator: AnyObject {
    func authenticate(_ request: AuthRequest) -> AuthDecision
}
