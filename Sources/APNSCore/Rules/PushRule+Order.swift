extension PushRule {
    /// The device-push rules in the order they run; the first rejection decides. APNs' own order is unknown; this
    /// follows apns-protocol.md §11 (a reasoned proposal): route, header sanity, authentication, topic, device token,
    /// payload, then warnings. docs/rules.md explains each step.
    public static let deviceOrder: [PushRule] = [
        // §11 step 2: route.
        routePath, routeMethod, routeDeviceTokenPresent,
        // §11 step 3: header sanity.
        headersNotRepeated, headersMessageID, headersExpiration, headersPriority, headersPushType, headersCollapseID,
        // §11 step 4: authentication.
        authenticationProviderToken,
        // §11 step 5: topic.
        topicPresent, topicHasBundleID, topicSuffixNotDoubled, topicSyntax, topicMatchesPushType,
        // §11 step 6: device token.
        tokenFormat, tokenDeclared, tokenEnvironment, tokenTopic, tokenActive,
        // §11 step 7: body.
        payloadNotEmpty, payloadSize, payloadJSONObject,
        // §11 step 8: warnings (never reject).
        warnBackgroundPriority, warnBackgroundPayload, warnExpiration, warnLiveActivityPriority, warnAPSPresent,
        warnAPSKeys, warnAPSDates,
    ]

    /// The topic's own shape (present, has a bundle ID, no doubled suffix, valid characters): what must hold before
    /// the authenticator is asked whether the topic belongs to the credential.
    static let topicShape: [PushRule] = [topicPresent, topicHasBundleID, topicSuffixNotDoubled, topicSyntax]
}
