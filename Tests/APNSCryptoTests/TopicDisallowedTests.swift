import APNSCore
import APNSCrypto
import Testing

@Suite("400 TopicDisallowed: the topic's bundle ID must be the team's or the topic-specific key's")
struct TopicDisallowedTests {
    @Test("team-scoped key: bundle ID with at most one push-type suffix", arguments: [
        ("com.example.alpha", nil), ("com.example.alpha.push-type.liveactivity", nil), ("com.example.alpha.voip", nil),
        ("com.example.alpha.voip-ptt", nil), ("com.example.alpha.complication", nil),
        ("com.example.alpha.pushkit.fileprovider", nil), ("com.example.alpha.push-type.widgets", nil),
        ("com.example.alpha.push-type.controls", nil), ("com.example.alpha.location-query", nil),
        ("com.example.alpha.push-type.liveactivity.push-type.liveactivity", Reason.topicDisallowed),
        ("com.example.alpha.voip.voip", .topicDisallowed), ("com.example.beta", .topicDisallowed),
        (".push-type.liveactivity", .topicDisallowed), ("com.example", .topicDisallowed),
    ])
    func teamTopics(_ topic: String, _ expected: Reason?) throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let decision = fixture.authenticator().authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1"), topic: topic))
        #expect(decision.reason == expected)
        if expected != nil { #expect(decision.explanation?.contains("--topic \(AuthFixture.teamA):") == true) }
    }

    @Test("topic-specific key: only its own topics")
    func topicSpecificKey() throws {
        let fixture = AuthFixture()
        try fixture.registry.addBundleID("com.example.gamma", toTeam: AuthFixture.teamA)
        try fixture.addKey("TOPICKEY01", topics: ["com.example.gamma"])
        let token = try fixture.token("TOPICKEY01")
        #expect(fixture.authenticator().authenticate(
            fixture.bearer(token, topic: "com.example.gamma.push-type.liveactivity")).isAccepted)
        let decision = fixture.authenticator().authenticate(fixture.bearer(token, topic: AuthFixture.bundleA))
        #expect(decision.reason == .topicDisallowed)
        #expect(decision.explanation?.contains("topic-specific key TOPICKEY01 (com.example.gamma)") == true)
    }

    @Test("a bundle ID added to the team after the connection was bound is refused there, accepted on a new connection")
    func bundleAddedAfterBinding() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let token = try fixture.token("KEYAAAAAA1")
        let connection = fixture.authenticator()
        #expect(connection.authenticate(fixture.bearer(token)).isAccepted)
        try fixture.registry.addBundleID("com.example.delta", toTeam: AuthFixture.teamA)
        let decision = connection.authenticate(fixture.bearer(token, topic: "com.example.delta"))
        #expect(decision.reason == .topicDisallowed)
        #expect(decision.explanation?.contains("after this connection's first push") == true)
        #expect(fixture.authenticator().authenticate(fixture.bearer(token, topic: "com.example.delta")).isAccepted)
    }

    @Test("a team with no registered bundle IDs accepts any topic with a warning; no topic means no check")
    func uncheckedTopics() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYCCCCCC3", team: "TEAMCCCCC3")
        let token = try fixture.token("KEYCCCCCC3")
        let decision = fixture.authenticator().authenticate(fixture.bearer(token, topic: "anything.at.all"))
        #expect(decision.isAccepted)
        #expect(decision.warningCodes == ["auth-topic-unchecked"])
        let otherFixture = AuthFixture()
        try otherFixture.addKey("KEYAAAAAA1")
        #expect(otherFixture.authenticator().authenticate(
            otherFixture.bearer(try otherFixture.token("KEYAAAAAA1"), topic: nil)).warningCodes.isEmpty)
    }
}
