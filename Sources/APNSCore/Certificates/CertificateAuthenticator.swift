/// Certificate-based provider authentication: what APNs answers a push on a connection that presented a client
/// certificate. Pure: every input is a value, so each answer is table-tested (`CertificateAuthenticatorTests`).
///
/// In order:
/// 1. the certificate must chain to the trusted authority and be valid now, else `403 BadCertificate` (A-RESP:
///    "The certificate is invalid"; APNs refuses revoked certificates at TLS time, A-CERT — the mock completes the
///    handshake and answers on the stream so the sender sees why);
/// 2. it must be an APNs certificate (subject UID = bundle ID, an environment extension), else `BadCertificate`;
/// 3. its environment must include the connection's, else `403 BadCertificateEnvironment` (A-RESP; observed as
///    GOAWAY debug data, apns2#93);
/// 4. push types APNs serves on token connections only (`liveactivity`, `location`: A-SEND, A-LA, F-712499) get
///    `RuleConfiguration.tokenOnlyPushWithoutToken`;
/// 5. `apns-topic` may be omitted when the certificate has one topic (it defaults to the bundle ID, A-SEND), is
///    required when it has several (`400 MissingTopic`, A-RESP), and must be one of its topics, else
///    `400 TopicDisallowed` (A-RESP; "this credential may not push to this topic", node-apn#635).
public struct CertificateAuthenticator: Sendable {
    public var tokenOnlyPushReason: Reason

    public init(tokenOnlyPushReason: Reason = .topicDisallowed) {
        self.tokenOnlyPushReason = tokenOnlyPushReason
    }

    /// What the authenticator is asked about one push.
    public struct Request: Sendable {
        public var certificate: PeerCertificate
        /// `apns-topic`: nil when absent. `topicIsWellFormed` false leaves a malformed topic to the topic rules.
        public var topic: String?
        public var topicIsWellFormed: Bool
        public var pushType: PushType
        public var environment: APNsEnvironment

        public init(
            certificate: PeerCertificate, topic: String?, topicIsWellFormed: Bool, pushType: PushType,
            environment: APNsEnvironment
        ) {
            self.certificate = certificate
            self.topic = topic
            self.topicIsWellFormed = topicIsWellFormed
            self.pushType = pushType
            self.environment = environment
        }
    }

    public enum Decision: Sendable, Hashable {
        /// Authenticated; `topic` is the topic the push goes to (the bundle ID when the request omitted it).
        case accepted(ProviderCertificate, topic: String?)
        case rejected(Reason, String)
    }

    public func authenticate(_ request: Request) -> Decision {
        if case .untrusted(let why) = request.certificate.verification {
            return .rejected(
                .badCertificate,
                "the client certificate (\(request.certificate.subject)) is not trusted: \(why). Use a certificate "
                    + "issued by the mock's CA (apns-mock certgen)")
        }
        let certificate: ProviderCertificate
        switch ProviderCertificate.read(request.certificate) {
        case .success(let read): certificate = read
        case .failure(let problem):
            return .rejected(.badCertificate, "the client certificate is no APNs provider certificate: \(problem)")
        }
        guard certificate.environments.contains(request.environment) else {
            return .rejected(
                .badCertificateEnvironment,
                "the certificate for \(certificate.bundleID) is for \(certificate.environmentText), this connection is "
                    + "\(request.environment.rawValue); use a \(request.environment.rawValue) certificate or the "
                    + "\(certificate.environments[0].rawValue) host")
        }
        if request.pushType.requiresTokenAuthentication {
            return .rejected(
                tokenOnlyPushReason,
                "\(request.pushType.rawValue) pushes need token-based (JWT) authentication; certificate-based "
                    + "connections cannot send them. Send authorization: bearer <JWT> on a connection without a "
                    + "client certificate")
        }
        guard let topic = request.topic else {
            guard let defaultTopic = certificate.defaultTopic else {
                return .rejected(
                    .missingTopic,
                    "the certificate covers several topics (\(certificate.allowedTopics.joined(separator: ", "))); "
                        + "send apns-topic to say which")
            }
            return .accepted(certificate, topic: defaultTopic)
        }
        guard request.topicIsWellFormed else { return .accepted(certificate, topic: topic) }
        guard certificate.allowedTopics.contains(topic) else {
            return .rejected(
                .topicDisallowed,
                "the certificate may push to \(certificate.allowedTopics.joined(separator: ", ")), not \(topic)")
        }
        return .accepted(certificate, topic: topic)
    }
}
