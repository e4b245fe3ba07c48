import APNSCore
import APNSCrypto
import Foundation
import Testing

@Suite("Signatures and encodings real senders use: raw and DER, base64url and standard Base64, openssl recipe")
struct SignatureFormTests {
    @Test("raw r||s (JOSE) and DER (pushy, a2) signatures are both accepted, without warnings",
          arguments: [ProviderTokenSigner.SignatureForm.raw, .der])
    func bothSignatureForms(_ form: ProviderTokenSigner.SignatureForm) throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let decision = fixture.authenticator().authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1", form: form)))
        #expect(decision.isAccepted)
        #expect(decision.warningCodes.isEmpty)
    }

    @Test("padded standard Base64 segments (a2) are accepted with a warning")
    func standardBase64Token() throws {
        let fixture = AuthFixture()
        let key = try fixture.addKey("KEYAAAAAA1").privateKey
        let header = Data(#"{"alg":"ES256","kid":"KEYAAAAAA1"}"#.utf8).base64EncodedString()
        let claims = Data(#"{"iss":"\#(AuthFixture.teamA)","iat":\#(fixture.nowSeconds)}"#.utf8).base64EncodedString()
        let input = header + "." + claims
        let signature = Data(try key.derSignature(for: Array(input.utf8))).base64EncodedString()
        let decision = fixture.authenticator().authenticate(fixture.request(["Bearer \(input).\(signature)"]))
        #expect(decision.isAccepted)
        #expect(decision.warningCodes == ["jwt-standard-base64"])
    }

    /// Apple's "Sending push notifications using command-line tools" (A-CLI) builds the token with `openssl`; its
    /// signature is DER. Source: A-TOKEN.
    static let appleRecipe = #"""
        JWT_ISSUE_TIME=$(date +%s)
        JWT_HEADER=$(printf '{ "alg": "ES256", "kid": "%s" }' "${AUTH_KEY_ID}" | openssl base64 -e -A | tr -- '+/' '-_' | tr -d =)
        JWT_CLAIMS=$(printf '{ "iss": "%s", "iat": %d }' "${TEAM_ID}" "${JWT_ISSUE_TIME}" | openssl base64 -e -A | tr -- '+/' '-_' | tr -d =)
        JWT_HEADER_CLAIMS="${JWT_HEADER}.${JWT_CLAIMS}"
        JWT_SIGNED_HEADER_CLAIMS=$(printf "${JWT_HEADER_CLAIMS}" | openssl dgst -binary -sha256 -sign "${TOKEN_KEY_FILE_NAME}" | openssl base64 -e -A | tr -- '+/' '-_' | tr -d =)
        printf '%s' "${JWT_HEADER}.${JWT_CLAIMS}.${JWT_SIGNED_HEADER_CLAIMS}"
        """#

    @Test("a token made by Apple's openssl dgst -sign shell recipe (DER signature) is accepted")
    func appleOpenSSLRecipe() throws {
        let fixture = AuthFixture()
        let key = try fixture.addKey("KEYAAAAAA1").privateKey
        fixture.clock.set(Timestamp(secondsSinceEpoch: Date().timeIntervalSince1970))
        let directory = try OpenSSLCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("AuthKey_KEYAAAAAA1.p8")
        try key.pkcs8PEM().write(to: keyFile, atomically: true, encoding: .utf8)
        let token = try OpenSSLCommand.shell(Self.appleRecipe, environment: [
            "AUTH_KEY_ID": "KEYAAAAAA1", "TEAM_ID": AuthFixture.teamA, "TOKEN_KEY_FILE_NAME": keyFile.path,
        ])
        let parsed = try ProviderToken(parsing: token[...])
        #expect(parsed.signature.first == 0x30)
        let decision = fixture.authenticator().authenticate(fixture.bearer(token))
        #expect(decision.isAccepted, "\(decision.explanation ?? "")")
        #expect(decision.sender?.headerJSON == #"{ "alg": "ES256", "kid": "KEYAAAAAA1" }"#)
    }

    @Test("a token signed with the repository's sample AuthKey_ABC123DEFG.p8 verifies against a registry built from it")
    func sampleKeyEndToEnd() throws {
        let configuration = KeyRegistryConfiguration(teams: [
            .init(teamID: "TEAM123456", bundleIDs: ["com.example.app"], keys: [.init(keyID: "ABC123DEFG", p8: "AuthKey_ABC123DEFG.p8")]),
        ])
        let registry = try SigningKeyRegistry(configuration: configuration, relativeTo: certsDirectory)
        let pem = try String(contentsOf: certsDirectory.appendingPathComponent("AuthKey_ABC123DEFG.p8"), encoding: .utf8)
        let signer = ProviderTokenSigner(teamID: "TEAM123456", keyID: "ABC123DEFG", key: try ES256PrivateKey(pem: pem))
        let now = Timestamp(secondsSinceEpoch: 1_800_000_000)
        let authenticator = ProviderTokenAuthenticator(registry: registry, cache: VerifiedTokenCache())
        let decision = authenticator.authenticate(AuthRequest(
            authorization: ["bearer \(try signer.token(issuedAt: now))"], topic: "com.example.app.push-type.liveactivity",
            pushType: .liveactivity, environment: .production, now: now))
        #expect(decision.isAccepted)
    }
}
