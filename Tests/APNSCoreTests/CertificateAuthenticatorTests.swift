import APNSCore
import CoreTestSupport
import Testing

/// Certificate-based provider authentication (A-CERT, A-SEND, A-RESP): each row is one certificate and request
/// and the answer APNs gives.
@Suite struct CertificateAuthenticatorTests {
    static func certificate(
        bundle: String? = "com.example.app", environments: [APNsEnvironment] = [.development], topics: [String] = [],
        trusted: Bool = true
    ) -> PeerCertificate {
        ConformanceCertificates.certificate(bundle: bundle, environments: environments, topics: topics, trusted: trusted)
    }

    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var certificate: PeerCertificate
        var topic: String?
        var pushType: PushType = .alert
        var environment: APNsEnvironment = .development
        /// The reason, or nil for acceptance.
        var reason: Reason?
        /// The topic the push goes to when accepted.
        var acceptedTopic: String?
        var testDescription: String { name }
    }

    static let multi = certificate(
        environments: [.development, .production], topics: ["com.example.app", "com.example.app.voip"])

    static let rows: [Row] = [
        Row(name: "single topic, topic omitted: defaults to the bundle ID", certificate: certificate(), topic: nil,
            acceptedTopic: "com.example.app"),
        Row(name: "single topic, its bundle ID", certificate: certificate(), topic: "com.example.app",
            acceptedTopic: "com.example.app"),
        Row(name: "single topic, another app's topic", certificate: certificate(), topic: "com.other.app",
            reason: .topicDisallowed),
        Row(name: "single topic, VoIP topic not in the certificate", certificate: certificate(),
            topic: "com.example.app.voip", pushType: .voip, reason: .topicDisallowed),
        Row(name: "multi-topic, topic omitted", certificate: multi, topic: nil, reason: .missingTopic),
        Row(name: "multi-topic, its VoIP topic", certificate: multi, topic: "com.example.app.voip", pushType: .voip,
            environment: .production, acceptedTopic: "com.example.app.voip"),
        Row(name: "multi-topic, a topic outside it", certificate: multi, topic: "com.example.app.complication",
            pushType: .complication, reason: .topicDisallowed),
        Row(name: "development certificate on the production host", certificate: certificate(),
            topic: "com.example.app", environment: .production, reason: .badCertificateEnvironment),
        Row(name: "production certificate on the development host", certificate: certificate(environments: [.production]),
            topic: "com.example.app", reason: .badCertificateEnvironment),
        Row(name: "untrusted certificate", certificate: certificate(trusted: false), topic: "com.example.app",
            reason: .badCertificate),
        Row(name: "no subject UID", certificate: certificate(bundle: nil), topic: "com.example.app",
            reason: .badCertificate),
        Row(name: "no environment extension", certificate: certificate(environments: []), topic: "com.example.app",
            reason: .badCertificate),
        Row(name: "Live Activity push: token connections only", certificate: certificate(),
            topic: "com.example.app.push-type.liveactivity", pushType: .liveactivity, reason: .topicDisallowed),
        Row(name: "untrusted is judged before the environment", certificate: certificate(trusted: false),
            topic: "com.example.app", environment: .production, reason: .badCertificate),
    ]

    @Test(arguments: rows) func answersAsAPNs(_ row: Row) {
        let decision = CertificateAuthenticator().authenticate(.init(
            certificate: row.certificate, topic: row.topic, topicIsWellFormed: true, pushType: row.pushType,
            environment: row.environment))
        switch decision {
        case .accepted(let provider, let topic):
            #expect(row.reason == nil, "accepted, expected \(String(describing: row.reason))")
            #expect(topic == row.acceptedTopic)
            #expect(provider.bundleID == "com.example.app")
        case .rejected(let reason, let explanation):
            #expect(reason == row.reason, "\(explanation)")
            #expect(!explanation.isEmpty)
        }
    }

    @Test func malformedTopicIsLeftToTheTopicRules() {
        let decision = CertificateAuthenticator().authenticate(.init(
            certificate: Self.certificate(), topic: "com example", topicIsWellFormed: false, pushType: .alert,
            environment: .development))
        #expect(decision == .accepted(try! ProviderCertificate.read(Self.certificate()).get(), topic: "com example"))
    }

    @Test func topicsExtensionRoundTripsAndRejectsGarbage() {
        let topics = ["com.example.app", "com.example.app.voip", "com.example.app.complication"]
        #expect(ProviderCertificate.parseTopics(ProviderCertificate.topicsExtensionDER(topics)) == topics)
        #expect(ProviderCertificate.parseTopics([0x30, 0x05, 0x0C]) == nil)
        #expect(ProviderCertificate.parseTopics([0x05, 0x00]) == nil)
        #expect(ProviderCertificate.parseTopics([0x30, 0x00]) == nil)
        let long = (0..<20).map { "com.example.app\($0)" }
        #expect(ProviderCertificate.parseTopics(ProviderCertificate.topicsExtensionDER(long)) == long)
    }

    @Test func templateHasApplesShape() {
        let template = ProviderCertificateTemplate(
            bundleID: "com.example.app", environments: [.development], extraTopics: ["com.example.app.voip"],
            teamID: "TEAM123456")
        #expect(template.subject.first?.name == "UID")
        #expect(template.commonName == "Apple Development IOS Push Services: com.example.app")
        #expect(template.extensions.map(\.oid) == [ProviderCertificate.developmentOID, ProviderCertificate.topicsOID])
        let single = ProviderCertificateTemplate(bundleID: "com.example.app", environments: [.development, .production], teamID: "T")
        #expect(single.extensions.map(\.oid) == [ProviderCertificate.developmentOID, ProviderCertificate.productionOID])
        #expect(single.commonName == "Apple Push Services: com.example.app")
    }
}

/// The certificate path through the whole rule list: the authentication rule hands a certificate connection to the
/// `CertificateAuthenticator`, and a token on it is ignored (A-SEND) unless configured otherwise.
@Suite struct CertificateRuleTests {
    static func request(topic: String?, authorization: String? = nil, environment: APNsEnvironment = .development) -> HTTPRequest {
        var request = PushRequests.push(
            topic: topic, headers: authorization.map { [HeaderField("authorization", $0)] } ?? [], environment: environment)
        request.connection.tls = TLSInfo(
            alpn: "h2", version: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256", serverName: "localhost",
            clientCertificate: CertificateAuthenticatorTests.certificate())
        return request
    }

    @Test func omittedTopicDefaultsToTheBundleAndIsRecorded() {
        let verdict = PushRequests.validate(Self.request(topic: nil))
        #expect(verdict.status == 200)
        #expect(verdict.topic == "com.example.app")
    }

    @Test func tokenOnCertificateConnectionIsIgnoredWithAWarning() {
        let authenticator = TableAuthenticator(.rejected(.invalidProviderToken, explanation: "bad"))
        let verdict = PushRequests.validate(
            Self.request(topic: "com.example.app", authorization: "bearer x"), authenticator: authenticator)
        #expect(verdict.status == 200)
        #expect(verdict.warnings.map(\.code) == [PushWarningCode.tokenOnCertificateConnection.rawValue])
    }

    @Test func verifyModeChecksTheTokenInstead() {
        var configuration = RuleConfiguration()
        configuration.tokenOnCertificateConnection = .verify
        let authenticator = TableAuthenticator(.rejected(.invalidProviderToken, explanation: "bad"))
        let verdict = PushRequests.validate(
            Self.request(topic: "com.example.app", authorization: "bearer x"), configuration: configuration,
            authenticator: authenticator)
        #expect(verdict.reason == .invalidProviderToken)
    }

    @Test func wrongEnvironmentIsRefusedByTheAuthenticationRule() {
        let verdict = PushRequests.validate(Self.request(topic: "com.example.app", environment: .production))
        #expect(verdict.reason == .badCertificateEnvironment)
        #expect(verdict.status == 403)
        #expect(verdict.ruleID == "auth.provider-token")
    }

    @Test func malformedTopicGetsBadTopicFromTheTopicRules() {
        let verdict = PushRequests.validate(Self.request(topic: "com example"))
        #expect(verdict.reason == .badTopic)
    }
}
