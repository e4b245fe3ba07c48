/// The cold path: parse a token and check algorithm, key, issuer and signature against the registry. Everything
/// that fails here is `403 InvalidProviderToken` ("not valid, or the token signature can't be verified", A-RESP).
/// Time rules are not applied here because they change with every request.
/// Source: A-TOKEN; tolerances A-TOKEN; pushy's mock answers the same reasons.
enum ProviderTokenVerification {
    static func verify(
        _ token: Substring, registry: SigningKeyRegistry, now: Timestamp
    ) -> Result<VerifiedToken, AuthRejection> {
        let parsed: ProviderToken
        do {
            parsed = try ProviderToken(parsing: token)
        } catch {
            return .failure(.invalid(error.explanation))
        }
        if let problem = algorithmProblem(parsed.algorithm) { return .failure(.invalid(problem)) }
        guard let keyID = parsed.keyID else {
            return .failure(.invalid(
                "the JWT header has no kid: set it to the 10-character Key ID of your signing key "
                    + "(the KEYID in AuthKey_KEYID.p8)"))
        }
        guard let entry = registry.entry(forKeyID: keyID) else {
            return .failure(.invalid(unknownKeyExplanation(keyID, known: registry.keyIDs)))
        }
        let key = entry.key
        guard let issuer = parsed.issuer else {
            return .failure(.invalid(
                "the JWT claims have no iss: set it to the 10-character Team ID that owns key \(keyID) "
                    + "(\(key.teamID))"))
        }
        guard issuer == key.teamID else {
            return .failure(.invalid(
                "JWT iss \"\(issuer.prefix(40))\" is not the team of key \(keyID), which belongs to team "
                    + "\(key.teamID): set iss to \(key.teamID) or sign with a key of team \(issuer.prefix(40))"))
        }
        guard let issuedAt = parsed.issuedAt else {
            return .failure(.invalid(
                "the JWT claims have no iat: set it to the time the token was made, in seconds since the Epoch (UTC)"))
        }
        guard !parsed.signature.isEmpty else {
            return .failure(.invalid("the JWT has an empty signature: sign header.claims with ES256 using key \(keyID)"))
        }
        guard key.verifier.isValidSignature(parsed.signature, for: parsed.signingInput) else {
            return .failure(.invalid(badSignatureExplanation(parsed.signature, key: key)))
        }
        var warnings: [PushWarning] = []
        if let warning = issuedAt.warning { warnings.append(warning) }
        if parsed.encoding == .standardBase64 {
            warnings.append(PushWarning(
                code: AuthWarningCode.standardBase64.rawValue,
                message: "the JWT uses standard Base64 ('+', '/' or '=' padding); APNs accepts it but RFC 7515 "
                    + "requires base64url without padding, and strict JWT libraries reject it"))
        }
        return .success(VerifiedToken(
            teamID: key.teamID, keyID: keyID, keyRevision: entry.revision, issuedAt: issuedAt, firstSeen: now,
            fingerprint: VerifiedToken.fingerprint(of: token), headerJSON: parsed.headerJSON,
            claimsJSON: parsed.claimsJSON, warnings: warnings))
    }

    /// Why `alg` is not acceptable, or nil for `ES256`. APNs "supports only the ES256 algorithm" (A-TOKEN).
    static func algorithmProblem(_ algorithm: String?) -> String? {
        guard let algorithm else {
            return "the JWT header has no alg: APNs supports only ES256, so set \"alg\": \"ES256\""
        }
        switch algorithm {
        case "ES256":
            return nil
        case let value where value.lowercased() == "none":
            return "the JWT header says alg \"\(value)\" (an unsigned token); APNs supports only ES256: sign the "
                + "token with your .p8 key"
        case let value where value.uppercased().hasPrefix("HS"):
            return "the JWT header says alg \"\(value.prefix(20))\" (an HMAC shared secret, such as a public key used "
                + "as a secret); APNs supports only ES256: sign with the .p8 private key"
        case let value:
            return "the JWT header says alg \"\(value.prefix(20))\"; APNs supports only ES256 (ECDSA P-256 with "
                + "SHA-256): set \"alg\": \"ES256\" and sign with your .p8 key"
        }
    }

    private static func unknownKeyExplanation(_ keyID: String, known: [String]) -> String {
        let list = known.isEmpty ? "none" : known.prefix(10).joined(separator: ", ")
        return "JWT kid \"\(keyID.prefix(40))\" is not a key the mock knows (registered: \(list)): register it "
            + "with --key TEAMID:\(keyID.prefix(40)):AuthKey_\(keyID.prefix(40)).p8 or sign with a registered key"
    }

    private static func badSignatureExplanation(_ signature: [UInt8], key: SigningKey) -> String {
        let form: String
        if signature.count == 64 {
            form = "a 64-byte raw r||s signature"
        } else if signature.first == 0x30 {
            form = "a \(signature.count)-byte DER signature"
        } else {
            form = "a \(signature.count)-byte signature that is neither 64-byte raw r||s nor DER"
        }
        return "the JWT carries \(form) that does not verify with the public key of \(key.keyID) (fingerprint "
            + "\(key.verifier.publicKeyFingerprint.prefix(16))): sign header.claims with ES256 (P-256, SHA-256) "
            + "using AuthKey_\(key.keyID).p8, and sign the segments exactly as sent"
    }
}
