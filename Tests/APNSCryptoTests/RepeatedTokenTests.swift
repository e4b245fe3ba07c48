import APNSCore
import APNSCrypto
import Testing

/// A connection remembers its last accepted token (`AcceptedToken`) and answers a repeat of it without looking the
/// token up again. These tests change, between two requests with the same `authorization` header, one thing the
/// first answer depended on, and expect the answer a connection without that memory would give.
@Suite("Repeated provider token on one connection: the same answers as judging it afresh")
struct RepeatedTokenTests {
    /// One change made between the first (accepted) request and the repeat, and the repeat's expected reason.
    struct Change: CustomTestStringConvertible, Sendable {
        var name: String
        var expected: Reason?
        var apply: @Sendable (AuthFixture) throws -> Void
        var testDescription: String { name }
    }

    static let changes: [Change] = [
        Change(name: "nothing", expected: nil) { _ in },
        Change(name: "the clock moves 59 min", expected: nil) { $0.clock.advance(seconds: 3540) },
        Change(name: "the clock moves past the token's hour", expected: .expiredProviderToken) {
            $0.clock.advance(seconds: 3601)
        },
        Change(name: "the key is removed", expected: .invalidProviderToken) { $0.registry.removeKey(id: "KEYAAAAAA1") },
        Change(name: "the key is replaced by another of the same Key ID", expected: .invalidProviderToken) {
            try $0.addKey("KEYAAAAAA1")
        },
        Change(name: "the topic's bundle ID is removed from the team", expected: .topicDisallowed) {
            try $0.registry.addBundleID("com.example.other", toTeam: AuthFixture.teamA)
            $0.registry.removeBundleID(AuthFixture.bundleA, fromTeam: AuthFixture.teamA)
        },
        Change(name: "the verified-token cache is emptied", expected: nil) { $0.cache.removeAll() },
    ]

    @Test("one change between two requests with the same header", arguments: changes)
    func repeatAfterChange(_ change: Change) throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let connection = fixture.authenticator()
        let token = try fixture.token("KEYAAAAAA1")
        #expect(connection.authenticate(fixture.bearer(token)).isAccepted)
        #expect(connection.authenticate(fixture.bearer(token)).isAccepted)
        try change.apply(fixture)
        #expect(connection.authenticate(fixture.bearer(token)).reason == change.expected)
    }

    @Test("a repeat to another topic or environment is judged for that topic and environment")
    func otherTopicAndEnvironment() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1", environment: .development)
        let connection = fixture.authenticator()
        let token = try fixture.token("KEYAAAAAA1")
        #expect(connection.authenticate(fixture.bearer(token)).isAccepted)
        #expect(connection.authenticate(fixture.bearer(token, topic: AuthFixture.bundleB)).reason == .topicDisallowed)
        #expect(connection.authenticate(fixture.bearer(token)).isAccepted)
        #expect(connection.authenticate(fixture.bearer(token, environment: .production)).reason
            == ProviderTokenPolicy().environmentMismatchReason.reason)
    }

    @Test("the future-iat warning of a repeated token follows the clock")
    func futureWarningFollowsClock() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let connection = fixture.authenticator()
        let token = try fixture.token("KEYAAAAAA1", age: -600)
        #expect(connection.authenticate(fixture.bearer(token)).warningCodes == ["jwt-iat-in-future"])
        #expect(connection.authenticate(fixture.bearer(token)).warningCodes == ["jwt-iat-in-future"])
        fixture.clock.advance(seconds: 590)
        #expect(connection.authenticate(fixture.bearer(token)).warningCodes == [])
    }

    @Test("a topic warning (team without bundle IDs) is repeated, and goes once the team has bundle IDs")
    func topicWarningRepeated() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYCCCCCC3", team: "TEAMCCCCC3")
        let connection = fixture.authenticator()
        let token = try fixture.token("KEYCCCCCC3")
        let topic = "com.example.gamma"
        #expect(connection.authenticate(fixture.bearer(token, topic: topic)).warningCodes == ["auth-topic-unchecked"])
        #expect(connection.authenticate(fixture.bearer(token, topic: topic)).warningCodes == ["auth-topic-unchecked"])
        try fixture.registry.addBundleID(topic, toTeam: "TEAMCCCCC3")
        #expect(connection.authenticate(fixture.bearer(token, topic: topic)).warningCodes == [])
    }
}
