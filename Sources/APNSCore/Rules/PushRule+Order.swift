extension PushRule {
    /// The device-push rules in the order they run; the first rejection decides. APNs' own order is unknown; this
    /// follows docs/rules.md check order (a reasoned proposal): route, header sanity, authentication, topic, device token,
    /// payload, then warnings. docs/rules.md explains each step.
    public static let deviceOrder: [PushRule] = [
        // docs/rules.md check order: route.
        routePath, routeMethod, routeDeviceTokenPresent,
        // docs/rules.md check order: header sanity.
        headersNotRepeated, headersMessageID, headersExpiration, headersPriority, headersPushType, headersCollapseID,
        // docs/rules.md check order: authentication.
        authenticationProviderToken,
        // docs/rules.md check order: topic.
        topicPresent, topicHasBundleID, topicSuffixNotDoubled, topicSyntax, topicMatchesPushType,
        // docs/rules.md check order: device token.
        tokenFormat, tokenDeclared, tokenEnvironment, tokenTopic, tokenActive,
        // docs/rules.md check order: body.
        payloadNotEmpty, payloadSize, payloadJSONObject,
        // docs/rules.md check order: warnings (never reject).
        warnBackgroundPriority, warnBackgroundPayload, warnExpiration, warnLiveActivityPriority, warnAPSPresent,
        warnAPSKeys, warnAPSDates,
    ]

    /// The topic's own shape (present, has a bundle ID, no doubled suffix, valid characters): what must hold before
    /// the authenticator is asked whether the topic belongs to the credential.
    static let topicShape: [PushRule] = [topicPresent, topicHasBundleID, topicSuffixNotDoubled, topicSyntax]
}
