import APNSCore
import APNSCrypto
import Testing

@Suite("Connection binding: one team, related keys, the right environment")
struct ConnectionBindingTests {
    @Test("a key restricted to the other environment is BadEnvironmentKeyIdInToken", arguments: [
        (KeyEnvironmentScope.development, APNsEnvironment.production, Reason?.some(.badEnvironmentKeyIdInToken)),
        (.production, .development, .badEnvironmentKeyIdInToken),
        (.development, .development, nil), (.production, .production, nil),
        (.both, .development, nil), (.both, .production, nil),
    ])
    func environmentScope(_ scope: KeyEnvironmentScope, _ environment: APNsEnvironment, _ expected: Reason?) throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1", environment: scope)
        let decision = fixture.authenticator().authenticate(
            fixture.bearer(try fixture.token("KEYAAAAAA1"), environment: environment))
        #expect(decision.reason == expected)
        if expected != nil { #expect(decision.explanation?.contains("may be used only in \(scope.rawValue)") == true) }
    }

    @Test("the observed spelling BadEnvironmentKeyInToken is emitted when configured")
    func observedEnvironmentSpelling() throws {
        let fixture = AuthFixture(policy: ProviderTokenPolicy(environmentMismatchReason: .observed))
        try fixture.addKey("KEYAAAAAA1", environment: .development)
        let decision = fixture.authenticator().authenticate(
            fixture.bearer(try fixture.token("KEYAAAAAA1"), environment: .production))
        #expect(decision.reason == .badEnvironmentKeyInToken)
    }

    @Test("a second team on a bound connection is InvalidProviderToken; on a new connection it is fine")
    func oneTeamPerConnection() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1", team: AuthFixture.teamA)
        try fixture.addKey("KEYBBBBBB2", team: AuthFixture.teamB)
        let connection = fixture.authenticator()
        #expect(connection.authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1"))).isAccepted)
        let decision = connection.authenticate(fixture.bearer(try fixture.token("KEYBBBBBB2"), topic: AuthFixture.bundleB))
        #expect(decision.reason == .invalidProviderToken)
        #expect(decision.explanation?.contains("bound it to team \(AuthFixture.teamA)") == true)
        #expect(fixture.authenticator().authenticate(
            fixture.bearer(try fixture.token("KEYBBBBBB2"), topic: AuthFixture.bundleB)).isAccepted)
    }

    /// first key, second key, expected reason for the second on the same connection.
    static let keyPairs: [(String, String, Reason?)] = [
        ("TEAMKEY001", "TEAMKEY002", nil),  // two team-scoped keys of one team
        ("TEAMKEY001", "TOPICKEY01", .unrelatedKeyIdInToken),  // team-scoped, then topic-specific
        ("TOPICKEY01", "TEAMKEY001", .unrelatedKeyIdInToken),  // topic-specific, then team-scoped
        ("TOPICKEY01", "TOPICKEY02", nil),  // topic-specific and its related key
        ("TOPICKEY02", "TOPICKEY01", nil),  // the relation works both ways
        ("TOPICKEY01", "TOPICKEY03", .unrelatedKeyIdInToken),  // two unrelated topic-specific keys
    ]

    @Test("keys after the first push must be related to its key, else UnrelatedKeyIdInToken", arguments: keyPairs)
    func relatedKeys(_ first: String, _ second: String, _ expected: Reason?) throws {
        let fixture = AuthFixture()
        try fixture.addKey("TEAMKEY001")
        try fixture.addKey("TEAMKEY002")
        try fixture.addKey("TOPICKEY01", topics: [AuthFixture.bundleA], relatedKeyID: "TOPICKEY02")
        try fixture.addKey("TOPICKEY02", topics: [AuthFixture.bundleA])
        try fixture.addKey("TOPICKEY03", topics: [AuthFixture.bundleA])
        let connection = fixture.authenticator()
        #expect(connection.authenticate(fixture.bearer(try fixture.token(first))).isAccepted)
        fixture.clock.advance(seconds: 1200)
        let decision = connection.authenticate(fixture.bearer(try fixture.token(second)))
        #expect(decision.reason == expected)
        if expected != nil { #expect(decision.explanation?.contains("open a new connection") == true) }
    }

    @Test("removing a key at run time rejects its tokens at once, cached or not")
    func removedKey() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let token = try fixture.token("KEYAAAAAA1")
        let connection = fixture.authenticator()
        #expect(connection.authenticate(fixture.bearer(token)).isAccepted)
        fixture.registry.removeKey(id: "KEYAAAAAA1")
        let decision = connection.authenticate(fixture.bearer(token))
        #expect(decision.reason == .invalidProviderToken)
        #expect(decision.explanation?.contains("not a key the mock knows") == true)
    }

    @Test("replacing a key under the same Key ID invalidates tokens signed by the old key")
    func replacedKey() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let oldToken = try fixture.token("KEYAAAAAA1")
        #expect(fixture.authenticator().authenticate(fixture.bearer(oldToken)).isAccepted)
        try fixture.addKey("KEYAAAAAA1")
        #expect(fixture.authenticator().authenticate(fixture.bearer(oldToken)).reason == .invalidProviderToken)
        #expect(fixture.authenticator().authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1"))).isAccepted)
    }
}
