extension PushRule {
    /// Step 4 of docs/rules.md check order for a connection that presented a client certificate: the
    /// `CertificateAuthenticator` decides (A-CERT, A-SEND, A-RESP). A bearer token on such a connection is ignored, as
    /// A-SEND says APNs does ("APNs ignores this header if you use certificate-based authentication"), with the
    /// warning `token-on-certificate-connection`; `RuleConfiguration.tokenOnCertificateConnection = .verify` checks the
    /// token instead (`usesCertificate` is then false).
    static func usesCertificate(_ evaluation: PushEvaluation) -> PeerCertificate? {
        guard let certificate = evaluation.request.connection.tls?.clientCertificate else { return nil }
        if evaluation.configuration.tokenOnCertificateConnection == .verify,
            evaluation.headerIndex.firstPosition(of: .authorization) != nil
        {
            return nil
        }
        return certificate
    }

    static func authenticateCertificate(_ certificate: PeerCertificate, _ evaluation: inout PushEvaluation) -> RuleRejection? {
        let topicIsWellFormed = passesTopicShape(&evaluation)
        let authenticator = CertificateAuthenticator(
            tokenOnlyPushReason: evaluation.configuration.tokenOnlyPushWithoutToken)
        let decision = authenticator.authenticate(.init(
            certificate: certificate, topic: evaluation.facts.topic, topicIsWellFormed: topicIsWellFormed,
            pushType: evaluation.effectivePushType, environment: evaluation.environment))
        switch decision {
        case .rejected(let reason, let explanation):
            return RuleRejection(reason, explanation)
        case .accepted(let provider, let topic):
            evaluation.facts.topic = topic
            if evaluation.headerIndex.firstPosition(of: .authorization) != nil {
                evaluation.warn(
                    .tokenOnCertificateConnection,
                    "this connection authenticated with the certificate for \(provider.bundleID); APNs ignores the "
                        + "authorization header on certificate connections (A-SEND), so the token was not checked")
            }
            return nil
        }
    }
}
