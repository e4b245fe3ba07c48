/// What authentication read of a provider token it did not accept: the decoded header and claims as sent (not
/// secret) and the token's fingerprint, so the delivery record shows what was wrong with the token without
/// parsing it again. nil parts could not be decoded.
public struct PresentedToken: Sendable, Hashable {
    public var headerJSON: String?
    public var claimsJSON: String?
    /// `VerifiedToken.fingerprint(of:)` of the token text.
    public var fingerprint: String

    public init(headerJSON: String?, claimsJSON: String?, fingerprint: String) {
        self.headerJSON = headerJSON
        self.claimsJSON = claimsJSON
        self.fingerprint = fingerprint
    }

    /// A token that did not parse as a JWT: whichever of its first two segments decode to UTF-8 text.
    init(unparsed token: Substring) {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        func text(_ index: Int) -> String? {
            guard segments.count > index, let bytes = JWTBase64.decode(segments[index])?.bytes else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
        self.init(headerJSON: text(0), claimsJSON: text(1), fingerprint: VerifiedToken.fingerprint(of: token))
    }

    /// A parsed token, as sent.
    init(_ parsed: ProviderToken, token: Substring) {
        self.init(
            headerJSON: parsed.headerJSON, claimsJSON: parsed.claimsJSON,
            fingerprint: VerifiedToken.fingerprint(of: token))
    }

    /// A verified token that a later check (age, environment, connection binding, topic) refused.
    init(_ verified: VerifiedToken) {
        self.init(headerJSON: verified.headerJSON, claimsJSON: verified.claimsJSON, fingerprint: verified.fingerprint)
    }
}
