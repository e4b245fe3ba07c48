import APNSCore
import APNSCrypto
import Testing

@Suite("iat: 403 ExpiredProviderToken after one hour, future tolerance, string and float iat")
struct TokenTimeTests {
    @Test("a token is accepted up to one hour old and ExpiredProviderToken after", arguments: [
        (0.0, nil), (3599, nil), (3600, nil), (3601, Reason.expiredProviderToken), (7380, .expiredProviderToken),
    ])
    func oneHourRule(_ age: Double, _ expected: Reason?) throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let decision = fixture.authenticator().authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1", age: age)))
        #expect(decision.reason == expected)
    }

    @Test("the expiry explanation says how old the token is and what to do")
    func expiredExplanation() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let decision = fixture.authenticator().authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1", age: 7380)))
        let iat = fixture.nowSeconds - 7380
        #expect(decision.explanation == "iat \(iat) is 2 h 3 min old; APNs rejects tokens older than 1 h: sign a new "
            + "token (refresh every 20–60 minutes, e.g. at 50)")
    }

    @Test("a token that was valid expires on the same connection as the clock moves past one hour")
    func cachedTokenExpires() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let authenticator = fixture.authenticator()
        let token = try fixture.token("KEYAAAAAA1")
        #expect(authenticator.authenticate(fixture.bearer(token)).isAccepted)
        fixture.clock.advance(seconds: 3599)
        #expect(authenticator.authenticate(fixture.bearer(token)).isAccepted)
        fixture.clock.advance(seconds: 2)
        #expect(authenticator.authenticate(fixture.bearer(token)).reason == .expiredProviderToken)
    }

    @Test("iat in the future: warned past 60 s, InvalidProviderToken past the tolerance (default 1 h)", arguments: [
        (30.0, nil, [String]()), (600, nil, ["jwt-iat-in-future"]), (3600, nil, ["jwt-iat-in-future"]),
        (3601, Reason.invalidProviderToken, []),
    ])
    func futureIssuedAt(_ ahead: Double, _ expected: Reason?, _ warnings: [String]) throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let decision = fixture.authenticator().authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1", age: -ahead)))
        #expect(decision.reason == expected)
        #expect(decision.warningCodes == warnings)
    }

    @Test("the future tolerance is configurable")
    func configurableFutureTolerance() throws {
        let fixture = AuthFixture(policy: ProviderTokenPolicy(futureIssuedAtTolerance: 300))
        try fixture.addKey("KEYAAAAAA1")
        #expect(fixture.authenticator().authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1", age: -299))).isAccepted)
        let decision = fixture.authenticator().authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1", age: -301)))
        #expect(decision.reason == .invalidProviderToken)
        #expect(decision.explanation?.contains("5 min 1 s in the future") == true)
    }

    @Test("iat as a string (APNSwift, kalyke) or a float (pyapns-client) is accepted with a warning", arguments: [
        ("\"IAT\"", "jwt-iat-string"), ("IAT.75", "jwt-iat-float"),
    ])
    func lenientIssuedAt(_ template: String, _ warning: String) throws {
        let fixture = AuthFixture()
        let signer = try fixture.addKey("KEYAAAAAA1").signer
        let iat = template.replacingOccurrences(of: "IAT", with: String(fixture.nowSeconds))
        let token = try signer.token(
            headerJSON: #"{"alg":"ES256","kid":"KEYAAAAAA1","typ":"JWT"}"#,
            claimsJSON: #"{"iss":"\#(AuthFixture.teamA)","iat":\#(iat),"kid":"KEYAAAAAA1"}"#)
        let decision = fixture.authenticator().authenticate(fixture.bearer(token))
        #expect(decision.isAccepted)
        #expect(decision.warningCodes == [warning])
    }

    @Test("a string iat older than one hour is still ExpiredProviderToken")
    func expiredStringIssuedAt() throws {
        let fixture = AuthFixture()
        let signer = try fixture.addKey("KEYAAAAAA1").signer
        let token = try signer.token(
            headerJSON: #"{"alg":"ES256","kid":"KEYAAAAAA1"}"#,
            claimsJSON: #"{"iss":"\#(AuthFixture.teamA)","iat":"\#(fixture.nowSeconds - 4000)"}"#)
        #expect(fixture.authenticator().authenticate(fixture.bearer(token)).reason == .expiredProviderToken)
    }
}
