extension PushRule {
    /// Provider authentication, step 4 of docs/rules.md check order: after header sanity, before the topic rules.
    ///
    /// With a `ConnectionAuthenticator`, its decision stands: a rejection carries the authenticator's reason
    /// (`MissingProviderToken`, `InvalidProviderToken`, `ExpiredProviderToken`, `TopicDisallowed`, … A-RESP, A-TOKEN);
    /// an acceptance records the sender and its warnings.
    ///
    /// Without one the push counts as certificate-authenticated, and the push types APNs serves over token
    /// connections only (`liveactivity`, `location`: A-SEND, A-LA, WWDC23 10185, DTS in F-712499) are refused with
    /// `RuleConfiguration.tokenOnlyPushWithoutToken` (default `400 TopicDisallowed`, what a certificate connection
    /// was observed to get for a Live Activity push: jerryliurui/Live-Activities-Demo-NBA-Score#1).
    ///
    /// A connection that presented a client certificate is judged by `authenticateCertificate` instead
    /// (PushRule+Certificate.swift).
    public static let authenticationProviderToken = PushRule(id: "auth.provider-token") { evaluation in
        if let certificate = usesCertificate(evaluation) { return authenticateCertificate(certificate, &evaluation) }
        guard let authenticator = evaluation.authenticator else {
            let pushType = evaluation.effectivePushType
            guard pushType.requiresTokenAuthentication else { return nil }
            return RuleRejection(
                evaluation.configuration.tokenOnlyPushWithoutToken,
                "\(pushType.rawValue) pushes need token-based (JWT) authentication; this connection has none "
                    + "(certificate-style). Send authorization: bearer <JWT> on a token-authenticated connection")
        }
        // Whether the topic belongs to the credential is judged only for a well-formed topic: a missing or malformed
        // one gets the topic rules' own answer (MissingTopic, BadTopic, TopicDisallowed for a doubled suffix) in
        // step 5 rather than the authenticator's TopicDisallowed.
        let topicIsWellFormed = passesTopicShape(&evaluation)
        // The first value alone, as a string (the authenticator reads only it); the others only when repeated.
        let request = AuthRequest(
            firstAuthorization: evaluation.header(.authorization),
            laterAuthorization: evaluation.headerIndex.isRepeated(.authorization)
                ? Array(evaluation.headerValues(.authorization).dropFirst()) : [],
            topic: topicIsWellFormed ? evaluation.facts.topic : nil,
            pushType: evaluation.facts.pushType,
            environment: evaluation.environment,
            now: evaluation.now)
        switch authenticator.authenticate(request) {
        case .accepted(let sender, let warnings):
            evaluation.sender = sender
            if !warnings.isEmpty { evaluation.warnings += warnings }
            return nil
        case .rejected(let reason, let explanation, let token):
            evaluation.presentedToken = token
            return RuleRejection(reason, explanation)
        }
    }

    /// Whether the topic passes every rule of `PushRule.topicShape`; when it does, it is noted as
    /// `PushEvaluation.wellFormedTopic` (step 5 then passes it without checking again). The rules are pure
    /// (`PushRule.init(topicShape:)`), so they run on the evaluation itself: no copy.
    static func passesTopicShape(_ evaluation: inout PushEvaluation) -> Bool {
        // The usual topic is told well-formed in one pass over its bytes; any other runs the rules one by one.
        if let topic = evaluation.facts.topic, isWellShapedTopic(topic, implied: evaluation.pushTypeImplied(byTopic: topic)) {
            evaluation.wellFormedTopic = topic
            return true
        }
        for rule in PushRule.topicShape where rule.apply(to: &evaluation) != nil { return false }
        evaluation.wellFormedTopic = evaluation.facts.topic
        return true
    }
}
