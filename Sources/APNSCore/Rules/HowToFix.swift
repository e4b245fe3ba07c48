/// What the sender should change, in one sentence, for the rule that decided a push's answer: the one source of the
/// "How to fix" text that `apns-mock explain`, `apns-mock push`, `lint`, the admin API (a record's `fix`) and the web
/// inspector show. A rule's own text comes first, because one `reason` can come from different mistakes
/// (`DeviceTokenNotForTopic` is a topic without the push type's suffix under `topic.push-type-suffix`, a token of
/// another app under `token.topic`); a rule whose rejections carry several reasons (`auth.provider-token`), a
/// broadcast rule and a scripted answer fall back to the reason's text. The record's `explanation` names the values
/// of this push; this text is the same for every push the rule decides.
public enum HowToFix {
    /// The text for an answer decided by `ruleID` with APNs' `reason` (either may be absent); nil when there is
    /// nothing to fix (a 200, or an answer no rule and no known reason explains).
    public static func text(ruleID: String?, reason: String?) -> String? {
        if let ruleID {
            if let text = byRule[ruleID] { return text }
            if ruleID.hasPrefix(strictPrefix) {
                let code = String(ruleID.dropFirst(strictPrefix.count))
                return "Strict mode (the mock's rule, not APNs') turned the warning \(code) into this answer: change "
                    + "the push as that warning says, or leave \(code) out of rules.strict. APNs itself answers 200"
            }
            if ruleID == scriptedRuleID || ruleID.hasPrefix(faultPrefix) {
                let handling = reason.flatMap { byReason[$0] }.map { " Your sender should handle it: \($0)" }
                    ?? " Your sender should survive it: retry on a new connection without losing the push."
                return "Nothing in the push caused this: the mock's fault injection chose the answer." + handling
            }
        }
        return reason.flatMap { byReason[$0] }
    }

    static let strictPrefix = "strict."
    static let scriptedRuleID = "scripted"
    static let faultPrefix = "fault."

    /// The device-push rules that can reject (`PushRule.deviceOrder` but the `warn.*` rules, which never reject,
    /// and `auth.provider-token`, whose reasons say more than its id), the device-strict rule, each with its text.
    /// A test checks that every rejecting rule has one.
    public static let byRule: [String: String] = [
        "route.path": "POST to /3/device/<hex device token>, with nothing after the token.",
        "route.method": "Send device pushes with :method POST.",
        "route.device-token-present": "Put the device token at the end of the path: /3/device/<hex device token>.",
        "headers.not-repeated":
            "Send each apns-* header once; check that the HTTP client does not add its own copy of a header you set.",
        "headers.apns-id": "Make apns-id a canonical UUID (8-4-4-4-12 hex digits), or leave it out and let APNs choose.",
        "headers.apns-expiration": "Set apns-expiration to an integer: UNIX time in seconds, or 0 to try once.",
        "headers.apns-priority": "Set apns-priority to 10, 5 or 1 (background pushes: 5), or leave it out.",
        "headers.apns-push-type":
            "Set apns-push-type to a documented type, in lower case: "
                + PushType.allCases.map(\.rawValue).joined(separator: ", ") + ".",
        "headers.apns-collapse-id": "Shorten apns-collapse-id to at most 64 bytes.",
        "topic.present": "Send apns-topic: the app's bundle ID, plus the push type's suffix if it has one.",
        "topic.has-bundle-id":
            "Put the app's bundle ID before the suffix: com.example.app.push-type.liveactivity, not "
                + ".push-type.liveactivity (an empty bundle ID setting is the usual cause).",
        "topic.suffix-not-doubled":
            "Write the push type's suffix once: the bundle ID setting must not already end in it.",
        "topic.syntax": "Set apns-topic to a bundle ID: letters, digits, '-' and '.', no empty parts.",
        "topic.push-type-suffix":
            "End apns-topic in the push type's suffix: <bundle ID>.push-type.liveactivity for liveactivity pushes ("
                + PushType.allCases.filter { !$0.topicSuffix.isEmpty && $0 != .liveactivity }
                    .map { "\($0.topicSuffix) for \($0.rawValue)" }.joined(separator: ", ") + ").",
        "token.format":
            "Send the token exactly as the device reported it: hexadecimal digits, an even number of them, no spaces, "
                + "brackets or base64.",
        "token.declared":
            "Declare this token too (configuration \"tokens\" or POST /api/config/tokens), or set \"rules\": "
                + "{\"undeclaredTokens\": \"warn\"}; on APNs a token it never issued is BadDeviceToken.",
        "token.environment":
            "Send the token to the environment it came from: development tokens to the sandbox host, production "
                + "tokens to the production host.",
        "token.topic":
            "Push this token with the topic of the app and kind it was registered for (Live Activity tokens with "
                + "<bundle ID>.push-type.liveactivity): the token belongs to another app or kind of push.",
        "token.active":
            "Stop sending to this token and use the newest token the app reported (APNs gives the time it became "
                + "invalid).",
        "payload.not-empty": "Send a JSON object body, at least {\"aps\":{}}.",
        "payload.size":
            "Shrink the payload under the push type's limit (4096 bytes; 5120 for voip): send ids and fetch the rest "
                + "in the app.",
        "payload.json-object": "Send the body as one UTF-8 JSON object, such as {\"aps\":{\"alert\":\"Hello\"}}.",
        "strict.live-activity-device":
            "Device-strict mode (the mock's rule, not APNs'): the simulated device would not apply this push; change "
                + "the payload as the Live Activity outcome and the la-* warnings say. APNs itself answers 200.",
    ]

    /// APNs' reasons (A-RESP, A-BERR: what each means; the advice is ours), for the rules whose id does not say
    /// more and for answers no rule decided. A test checks that every `Reason` has one.
    public static let byReason: [String: String] = [
        "BadCollapseId": "Shorten apns-collapse-id to at most 64 bytes.",
        "BadDeviceToken":
            "Send the token exactly as the device reported it (hex, no spaces or brackets) to the environment it "
                + "came from (development tokens only work on the sandbox host).",
        "BadExpirationDate": "Set apns-expiration to a UNIX time in seconds (or 0), not milliseconds or a date string.",
        "BadMessageId": "Make apns-id a canonical UUID (8-4-4-4-12 hex digits) or leave it out.",
        "BadPriority": "Use apns-priority 10, 5 or 1 (background pushes need 5).",
        "BadTopic": "Set apns-topic to the bundle ID, plus .push-type.liveactivity for Live Activities.",
        "DeviceTokenNotForTopic":
            "Check apns-topic against the app and kind of token: the bundle ID the token was registered for, plus "
                + "the push type's suffix (.push-type.liveactivity for Live Activities).",
        "DuplicateHeaders": "Send each apns-* header once; check the HTTP client does not add its own copy.",
        "IdleTimeout": "Open a new connection; APNs closed this one for being idle.",
        "InvalidPushType":
            "Use a documented apns-push-type (alert, background, liveactivity, voip, ...) that matches the topic.",
        "MissingDeviceToken": "Put the device token in the path: /3/device/<token>.",
        "MissingTopic": "Add the apns-topic header (required with token authentication).",
        "PayloadEmpty": "Send a JSON body, at least {\"aps\":{}}.",
        "TopicDisallowed":
            "Push this topic with credentials allowed for it: a key of the team that owns the bundle ID, or that "
                + "app's certificate; Live Activity and location pushes need token (JWT) authentication.",
        "BadCertificate": "Connect with the app's APNs provider certificate, issued by Apple and not expired.",
        "BadCertificateEnvironment":
            "Use the certificate for this environment (development for the sandbox host, production for the other).",
        "ExpiredProviderToken": "Sign a new provider token; its iat must be less than an hour old.",
        "Forbidden": "Check the certificate or key: APNs refused it for this request.",
        "InvalidProviderToken":
            "Check the key ID (kid), team ID (iss), ES256 algorithm and that the .p8 key signs the token.",
        "MissingProviderToken": "Send authorization: bearer <JWT> (or use a client certificate).",
        "UnrelatedKeyIdInToken": "Use one key ID per connection; open a new connection for another key.",
        "BadEnvironmentKeyIdInToken":
            "This key is restricted to the other environment; use the matching host or key.",
        "BadEnvironmentKeyInToken": "This key is restricted to the other environment; use the matching host or key.",
        "BadPath": "POST to /3/device/<token>.",
        "MethodNotAllowed": "Use POST.",
        "ExpiredToken": "The (Live Activity) token expired: stop sending to it and use the new token the app reports.",
        "Unregistered": "The app is no longer registered for this token: stop sending to it.",
        "PayloadTooLarge": "Shrink the payload (4 KB for most pushes, 5 KB for VoIP and broadcasts).",
        "TooManyProviderTokenUpdates": "Refresh the provider token at most once every 20 minutes.",
        "TooManyRequests": "Slow down pushes to this device token.",
        "InternalServerError": "Retry later.",
        "ServiceUnavailable": "Retry later on a new connection.",
        "Shutdown": "Reconnect; the server is shutting down.",
        "FeatureNotEnabled": "Enable broadcast push for this app in the developer account (the mock: serve --manage-port).",
        "MissingChannelId": "Send the channel id in the apns-channel-id header.",
        "BadChannelId": "Send the channel id exactly as the channel-management API returned it (base64).",
        "ChannelNotRegistered": "Create the channel first, in the same environment, or use an id that exists.",
        "BadRequestParams": "Send only the headers and values the channel-management API documents.",
        "BadRequestPayload": "Send the body as one JSON object with the documented keys.",
        "MissingPushType": "Send apns-push-type: LiveActivity (broadcasts) or \"push-type\": \"LiveActivity\" (create).",
        "CannotCreateChannelConfig": "Delete channels you no longer use before creating more.",
        "TopicMismatch": "Use credentials of the app that owns the channel's bundle ID.",
        "MissingChannelQueueSize": "Send message-storage-policy in the create body.",
    ]
}
