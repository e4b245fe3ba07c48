import APNSCore
import APNSCrypto
import Testing

@Suite("429 TooManyProviderTokenUpdates: a new token sooner than 20 minutes after the previous was first seen")
struct TokenUpdateTests {
    @Test("switching tokens on a connection is refused before 20 minutes and allowed at 20", arguments: [
        (60.0, Reason.tooManyProviderTokenUpdates), (1199, .tooManyProviderTokenUpdates), (1200, nil), (3000, nil),
    ])
    func twentyMinuteRule(_ after: Double, _ expected: Reason?) throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let connection = fixture.authenticator()
        #expect(connection.authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1"))).isAccepted)
        fixture.clock.advance(seconds: after)
        let decision = connection.authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1")))
        #expect(decision.reason == expected)
        #expect(Reason.tooManyProviderTokenUpdates.status == 429)
    }

    @Test("after a refused switch the connection keeps its previous token, and the explanation says how long to wait")
    func keepsPreviousToken() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let connection = fixture.authenticator()
        let first = try fixture.token("KEYAAAAAA1")
        #expect(connection.authenticate(fixture.bearer(first)).isAccepted)
        fixture.clock.advance(seconds: 300)
        let decision = connection.authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1")))
        #expect(decision.explanation?.contains("5 min after its previous token was first seen") == true)
        #expect(decision.explanation?.contains("previous token for 15 min more") == true)
        #expect(connection.authenticate(fixture.bearer(first)).isAccepted)
        #expect(connection.binding?.tokenSwitches == 0)
    }

    @Test("the window counts from when the token was first seen, not from its iat (pushy#931)")
    func countsFromFirstSight() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let lazy = try fixture.token("KEYAAAAAA1")  // made now, first used 45 minutes later
        fixture.clock.advance(seconds: 45 * 60)
        let connection = fixture.authenticator()
        #expect(connection.authenticate(fixture.bearer(lazy)).isAccepted)
        fixture.clock.advance(seconds: 5 * 60)  // the sender refreshes at 50 minutes after iat
        #expect(connection.authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1"))).reason
            == .tooManyProviderTokenUpdates)
    }

    @Test("first sight is shared across connections: a token seen elsewhere 25 minutes ago may be replaced at once")
    func firstSightIsShared() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let shared = try fixture.token("KEYAAAAAA1")
        #expect(fixture.authenticator().authenticate(fixture.bearer(shared)).isAccepted)
        fixture.clock.advance(seconds: 25 * 60)
        let later = fixture.authenticator()
        #expect(later.authenticate(fixture.bearer(shared)).isAccepted)
        fixture.clock.advance(seconds: 60)
        #expect(later.authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1"))).isAccepted)
    }

    @Test("one token on many connections is never an update")
    func sameTokenManyConnections() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let token = try fixture.token("KEYAAAAAA1")
        for _ in 0..<5 {
            let connection = fixture.authenticator()
            for _ in 0..<3 { #expect(connection.authenticate(fixture.bearer(token)).isAccepted) }
            fixture.clock.advance(seconds: 30)
        }
    }

    @Test("switching back to an earlier token counts as an update")
    func switchingBack() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let connection = fixture.authenticator()
        let first = try fixture.token("KEYAAAAAA1")
        #expect(connection.authenticate(fixture.bearer(first)).isAccepted)
        fixture.clock.advance(seconds: 1200)
        #expect(connection.authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1"))).isAccepted)
        fixture.clock.advance(seconds: 60)
        #expect(connection.authenticate(fixture.bearer(first)).reason == .tooManyProviderTokenUpdates)
        #expect(connection.binding?.tokenSwitches == 1)
    }

    @Test("the window is configurable, and 0 turns the rule off", arguments: [(60.0, 59.0, true), (60, 61, false), (0, 1, false)])
    func configurableWindow(_ window: Double, _ after: Double, _ refused: Bool) throws {
        let fixture = AuthFixture(policy: ProviderTokenPolicy(tokenUpdateInterval: window))
        try fixture.addKey("KEYAAAAAA1")
        let connection = fixture.authenticator()
        #expect(connection.authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1"))).isAccepted)
        fixture.clock.advance(seconds: after)
        let decision = connection.authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1")))
        #expect((decision.reason == .tooManyProviderTokenUpdates) == refused)
    }
}
