import APNSCore

/// Makes APNs provider tokens (JWT, ES256): `{"alg":"ES256","kid":KEYID}.{"iss":TEAMID,"iat":SECONDS}`, signed.
/// For tests and for a sender built into the mock. Source: A-TOKEN.
public struct ProviderTokenSigner: Sendable {
    public enum SignatureForm: Sendable { case raw, der }

    public let teamID: String
    public let keyID: String
    private let key: ES256PrivateKey

    public init(teamID: String, keyID: String, key: ES256PrivateKey) {
        self.teamID = teamID
        self.keyID = keyID
        self.key = key
    }

    /// A token issued at `issuedAt`, with the signature in `form` (JOSE raw by default).
    public func token(issuedAt: Timestamp, signature form: SignatureForm = .raw) throws(CryptoError) -> String {
        let seconds = Int64(issuedAt.secondsSinceEpoch.rounded(.down))
        return try token(
            headerJSON: #"{"alg":"ES256","kid":"\#(keyID)"}"#, claimsJSON: #"{"iss":"\#(teamID)","iat":\#(seconds)}"#,
            signature: form)
    }

    /// A token with the header and claims exactly as given (tests use it for malformed and unusual tokens).
    public func token(headerJSON: String, claimsJSON: String, signature form: SignatureForm = .raw) throws(CryptoError) -> String {
        let signingInput = JWTBase64.encodeURL(Array(headerJSON.utf8)) + "." + JWTBase64.encodeURL(Array(claimsJSON.utf8))
        let message = Array(signingInput.utf8)
        let signature = switch form {
        case .raw: try key.rawSignature(for: message)
        case .der: try key.derSignature(for: message)
        }
        return signingInput + "." + JWTBase64.encodeURL(signature)
    }
}
