import APNSCore
import Testing

/// The authenticator judges whether a topic belongs to the credential only when the topic is well formed; a
/// missing or malformed topic gets the topic rules' own reason (found by the live conformance runner, where the
/// JWT authenticator answered TopicDisallowed for an empty topic before the rules could say MissingTopic).
@Suite struct AuthenticationTopicTests {
    @Test(arguments: [
        ("", Reason.missingTopic),
        ("com example app", Reason.badTopic),
        ("com.example.app.push-type.liveactivity.push-type.liveactivity", Reason.topicDisallowed),
    ])
    func aMalformedTopicReachesTheAuthenticatorAsNoTopic(topic: String, reason: Reason) {
        // An authenticator that would refuse any topic it is shown.
        let authenticator = TableAuthenticator(.rejected(.topicDisallowed, explanation: "not the team's topic"))
        let refusesTopics = TopicCheckingAuthenticator(inner: authenticator)
        let verdict = PushRequests.validate(PushRequests.push(topic: topic, pushType: "liveactivity"), authenticator: refusesTopics)
        #expect(refusesTopics.topicsSeen == [nil])
        #expect(verdict.reason == reason)
    }

    @Test func aWellFormedTopicIsPassedOn() {
        let checking = TopicCheckingAuthenticator(inner: TableAuthenticator(.accepted(TableAuthenticator.sender, warnings: [])))
        _ = PushRequests.validate(PushRequests.push(topic: "com.example.app"), authenticator: checking)
        #expect(checking.topicsSeen == ["com.example.app"])
    }
}

/// Accepts when shown no topic, otherwise answers like `inner`; records every topic it was shown.
private final class TopicCheckingAuthenticator: ConnectionAuthenticator {
    let inner: TableAuthenticator
    private(set) var topicsSeen: [String?] = []

    init(inner: TableAuthenticator) { self.inner = inner }

    var hasAuthenticated: Bool { inner.hasAuthenticated }

    func authenticate(_ request: AuthRequest) -> AuthDecision {
        topicsSeen.append(request.topic)
        guard request.topic != nil else { return .accepted(TableAuthenticator.sender, warnings: []) }
        return inner.authenticate(request)
    }
}
