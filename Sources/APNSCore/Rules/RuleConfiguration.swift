/// The switches of the device-push rules. The defaults answer as APNs does (where APNs' answer is known) and pick
/// the documented choice where it is not (docs/rules.md, "Choices for unknowns").
public struct RuleConfiguration: Sendable, Codable, Hashable {
    /// Answer as this environment regardless of the listener's (`ConnectionInfo.environment`). nil: the listener's.
    public var environmentOverride: APNsEnvironment?
    /// Warnings that become rejections: the mock's own answers, never APNs'. Empty by default.
    public var strict: [StrictRejection]
    /// What to do with a non-empty body that is not a JSON object (APNs' answer is unknown, A-GEN).
    public var nonJSONBody: NonJSONBodyPolicy
    /// What to do with a well-formed token the registry does not declare when the registry declares others.
    public var undeclaredTokens: UndeclaredTokenPolicy
    /// The answer for a token-only push type (`liveactivity`, `location`) on a connection without token
    /// authentication. Default `TopicDisallowed`, observed for a Live Activity push over a certificate connection
    /// (jerryliurui/Live-Activities-Demo-NBA-Score#1); F-712499: "Certificate-based authentication is not supported".
    public var tokenOnlyPushWithoutToken: Reason
    /// Reject device tokens longer than this many hex digits; nil = no limit (A-SEND: "Don't make assumptions about
    /// device token size"; Apple announced up to 100 bytes, A-REG).
    public var maximumDeviceTokenHexLength: Int?
    /// A bearer token on a connection that presented a client certificate (`TokenOnCertificateConnection`).
    public var tokenOnCertificateConnection: TokenOnCertificateConnection = .ignore

    public init(
        environmentOverride: APNsEnvironment? = nil,
        strict: [StrictRejection] = [],
        nonJSONBody: NonJSONBodyPolicy = .reject(.badRequestPayload),
        undeclaredTokens: UndeclaredTokenPolicy = .reject,
        tokenOnlyPushWithoutToken: Reason = .topicDisallowed,
        maximumDeviceTokenHexLength: Int? = nil
    ) {
        self.environmentOverride = environmentOverride
        self.strict = strict
        self.nonJSONBody = nonJSONBody
        self.undeclaredTokens = undeclaredTokens
        self.tokenOnlyPushWithoutToken = tokenOnlyPushWithoutToken
        self.maximumDeviceTokenHexLength = maximumDeviceTokenHexLength
    }

    /// The strict rejection configured for `code`, if any.
    public func strictRejection(for code: String) -> StrictRejection? {
        strict.first { $0.code == code }
    }
}

/// One warning code that strict mode turns into a rejection. The answer is labelled as the mock's
/// (`Verdict.isStrictMockAnswer`), not APNs'.
public struct StrictRejection: Sendable, Codable, Hashable {
    /// A `PushWarningCode` raw value (or a code another module emits, e.g. a Live Activity payload warning).
    public var code: String
    /// The `reason` in the response body. Default `MockStrict:<code>`, which no APNs client mistakes for Apple's.
    public var wireReason: String
    /// Default 400.
    public var status: Int

    public init(code: String, wireReason: String? = nil, status: Int = 400) {
        self.code = code
        self.wireReason = wireReason ?? "MockStrict:\(code)"
        self.status = status
    }

    public init(_ code: PushWarningCode, wireReason: String? = nil, status: Int = 400) {
        self.init(code: code.rawValue, wireReason: wireReason, status: status)
    }
}

/// The answer to a non-empty body that is not a JSON object. APNs' device-push answer is unknown (A-GEN, docs/rules.md choices); the
/// broadcast API answers `400 BadRequestPayload` for unparseable JSON (A-BERR).
public enum NonJSONBodyPolicy: Sendable, Codable, Hashable {
    /// Reject with this reason (default `BadRequestPayload`).
    case reject(Reason)
    /// Accept (200) and warn `body-not-json-object`.
    case acceptWithWarning
}

/// The answer to a well-formed device token that a non-empty registry does not declare.
public enum UndeclaredTokenPolicy: String, Sendable, Codable, Hashable {
    /// `400 BadDeviceToken`, what APNs answers for a token it never issued (A-RESP). Default.
    case reject
    /// Accept (200) and warn `undeclared-device-token`.
    case acceptWithWarning
}

/// What a bearer token means on a connection that presented a client certificate. A-SEND says of `authorization`:
/// "APNs ignores this header if you use certificate-based authentication"; whether APNs verifies it anyway is not
/// observed, so the other reading is a switch (docs/rules.md, "Choices for unknowns").
public enum TokenOnCertificateConnection: String, Sendable, Codable, Hashable {
    /// The certificate authenticates; the token is not checked and the record warns `token-on-certificate-connection`.
    case ignore
    /// The token is checked as on a token connection and decides; the certificate is only recorded.
    case verify
}
