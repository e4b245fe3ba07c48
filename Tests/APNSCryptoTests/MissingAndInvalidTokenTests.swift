import APNSCore
import CoreTestSupport
import APNSCrypto
import Foundation
import Testing

@Suite("403 MissingProviderToken and InvalidProviderToken")
struct MissingAndInvalidTokenTests {
    @Test("authorization missing, empty, not bearer, or bearer without token is MissingProviderToken", arguments: [
        [], [""], ["   "], ["Basic dXNlcjpwYXNz"], ["bearer"], ["Bearer   "], ["token abc.def.ghi"], ["bearerabc.def.ghi"],
    ])
    func missingProviderToken(_ authorization: [String]) throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let decision = fixture.authenticator().authenticate(fixture.request(authorization))
        #expect(decision.reason == .missingProviderToken)
        #expect(decision.explanation?.contains("bearer") == true)
    }

    @Test("the bearer scheme is case-insensitive (a2 sends Bearer)", arguments: ["bearer", "Bearer", "BEARER", "bEaReR"])
    func schemeIsCaseInsensitive(_ scheme: String) throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let token = try fixture.token("KEYAAAAAA1")
        let decision = fixture.authenticator().authenticate(fixture.request(["\(scheme) \(token)"]))
        #expect(decision.isAccepted)
        #expect(decision.sender?.keyID == "KEYAAAAAA1")
        #expect(decision.sender?.teamID == AuthFixture.teamA)
    }

    /// Tokens that are not a verifiable ES256 token by a registered key of the `iss` team.
    static func invalidTokens(_ fixture: AuthFixture) throws -> [(String, String, String)] {
        let signer = fixture.signers["KEYAAAAAA1"]!.signer
        let stranger = try ES256PrivateKey.generate()
        let iat = fixture.nowSeconds
        let claims = #"{"iss":"\#(AuthFixture.teamA)","iat":\#(iat)}"#
        let valid = try signer.token(issuedAt: fixture.clock.now())
        let parts = valid.split(separator: ".").map(String.init)
        let otherClaims = base64URL(#"{"iss":"\#(AuthFixture.teamA)","iat":\#(iat - 1)}"#)
        return [
            ("two parts", parts[0] + "." + parts[1], "three"),
            ("four parts", valid + ".e30", "three"),
            ("alg none, unsigned", base64URL(#"{"alg":"none","kid":"KEYAAAAAA1"}"#) + "." + base64URL(claims) + ".", "\"none\""),
            ("alg RS256", try signer.token(headerJSON: #"{"alg":"RS256","kid":"KEYAAAAAA1"}"#, claimsJSON: claims), "RS256"),
            ("alg missing", try signer.token(headerJSON: #"{"kid":"KEYAAAAAA1"}"#, claimsJSON: claims), "no alg"),
            ("alg lower case", try signer.token(headerJSON: #"{"alg":"es256","kid":"KEYAAAAAA1"}"#, claimsJSON: claims), "es256"),
            ("kid missing", try signer.token(headerJSON: #"{"alg":"ES256"}"#, claimsJSON: claims), "no kid"),
            ("kid unknown", try signer.token(headerJSON: #"{"alg":"ES256","kid":"ZZZZZZZZZ9"}"#, claimsJSON: claims), "ZZZZZZZZZ9"),
            ("iss missing", try signer.token(headerJSON: #"{"alg":"ES256","kid":"KEYAAAAAA1"}"#, claimsJSON: #"{"iat":\#(iat)}"#), "no iss"),
            ("iss another team", try signer.token(
                headerJSON: #"{"alg":"ES256","kid":"KEYAAAAAA1"}"#, claimsJSON: #"{"iss":"\#(AuthFixture.teamB)","iat":\#(iat)}"#),
             AuthFixture.teamB),
            ("iat missing", try signer.token(
                headerJSON: #"{"alg":"ES256","kid":"KEYAAAAAA1"}"#, claimsJSON: #"{"iss":"\#(AuthFixture.teamA)"}"#), "no iat"),
            ("iat not numeric", try signer.token(
                headerJSON: #"{"alg":"ES256","kid":"KEYAAAAAA1"}"#, claimsJSON: #"{"iss":"\#(AuthFixture.teamA)","iat":"now"}"#),
             "seconds since the Epoch"),
            ("signed by another key", try ProviderTokenSigner(teamID: AuthFixture.teamA, keyID: "KEYAAAAAA1", key: stranger)
                .token(issuedAt: fixture.clock.now()), "does not verify"),
            ("claims altered after signing", parts[0] + "." + otherClaims + "." + parts[2], "does not verify"),
            ("DER signature by another key", try ProviderTokenSigner(teamID: AuthFixture.teamA, keyID: "KEYAAAAAA1", key: stranger)
                .token(issuedAt: fixture.clock.now(), signature: .der), "DER signature"),
            ("empty signature", parts[0] + "." + parts[1] + ".", "empty signature"),
            ("signature not Base64", parts[0] + "." + parts[1] + ".!!", "not Base64"),
            ("header not JSON", base64URL("alg=ES256") + "." + parts[1] + "." + parts[2], "JSON object"),
        ]
    }

    @Test("every malformed, wrongly signed or wrongly attributed token is InvalidProviderToken, explained")
    func invalidProviderToken() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        for (name, token, mention) in try Self.invalidTokens(fixture) {
            let decision = fixture.authenticator().authenticate(fixture.bearer(token))
            #expect(decision.reason == .invalidProviderToken, "\(name)")
            #expect(decision.explanation?.contains(mention) == true, "\(name): \(decision.explanation ?? "accepted")")
        }
    }

    @Test("HS256 signed with the public key as the HMAC secret is InvalidProviderToken (the classic algorithm confusion)")
    func hmacWithPublicKeyAsSecret() throws {
        let fixture = AuthFixture()
        let signer = try fixture.addKey("KEYAAAAAA1")
        let input = base64URL(#"{"alg":"HS256","kid":"KEYAAAAAA1"}"#) + "."
            + base64URL(#"{"iss":"\#(AuthFixture.teamA)","iat":\#(fixture.nowSeconds)}"#)
        let mac = try OpenSSLCommand.runBinary(
            ["dgst", "-sha256", "-binary", "-hmac", signer.privateKey.publicKey.pemRepresentation],
            input: Data(input.utf8))
        let signature = JWTBase64.encodeURL(Array(mac))
        let decision = fixture.authenticator().authenticate(fixture.bearer(input + "." + signature))
        #expect(decision.reason == .invalidProviderToken)
        #expect(decision.explanation?.contains("HS256") == true)
    }

    @Test("a rejected token leaves the connection unauthenticated; the first valid one authenticates it")
    func authenticationState() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let authenticator = fixture.authenticator()
        #expect(!authenticator.hasAuthenticated)
        _ = authenticator.authenticate(fixture.request([]))
        _ = authenticator.authenticate(fixture.bearer("a.b.c"))
        #expect(!authenticator.hasAuthenticated)
        #expect(authenticator.authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1"))).isAccepted)
        #expect(authenticator.hasAuthenticated)
        #expect(authenticator.binding?.teamID == AuthFixture.teamA)
    }
}
