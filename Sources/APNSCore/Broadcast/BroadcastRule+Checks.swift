import APNSJSON
import Foundation

extension BroadcastRule {
    /// The bundle ID in the path must not carry a push-type suffix: `400 TopicDisallowed` ("Ensure that no push
    /// type suffix is added to the bundle ID": A-BERR; A-TRBL).
    public static let topicSuffix = BroadcastRule(id: "broadcast.topic-suffix", appliesTo: all) { evaluation in
        let bundleID = evaluation.route.bundleID
        guard TopicBundleID.bundleID(fromTopic: bundleID) != bundleID else { return nil }
        return RuleRejection(
            .topicDisallowed,
            "\(bundleID) carries a push-type suffix: broadcast and channel paths take the plain bundle ID "
                + "(\(TopicBundleID.bundleID(fromTopic: bundleID)))")
    }

    /// The same provider-token authentication as device pushes (A-TOKEN, A-BSEND "authentication first"); a
    /// token whose team does not own the path's bundle ID is `403 TopicMismatch` here (A-BERR), where a device
    /// push gets `TopicDisallowed`. Without an authenticator (certificate-style connections) the request passes.
    ///
    /// On a connection that presented a client certificate, the certificate decides, as for device pushes (A-CERT;
    /// A-BSEND shows a certificate example; A-BERR lists `BadCertificate`, `BadCertificateEnvironment` and
    /// `TopicMismatch` "bundle IDs in the token/cert"): untrusted → `403 BadCertificate`, wrong environment →
    /// `403 BadCertificateEnvironment`, a bundle the certificate does not cover → `403 TopicMismatch`. A bearer token
    /// beside it is ignored, with the warning `token-on-certificate-connection`.
    public static let authentication = BroadcastRule(id: "broadcast.auth", appliesTo: all) { evaluation in
        if let certificate = evaluation.request.connection.tls?.clientCertificate {
            return authenticateCertificate(certificate, &evaluation)
        }
        guard let authenticator = evaluation.authenticator else { return nil }
        let request = AuthRequest(
            authorization: evaluation.request.values("authorization"), topic: evaluation.route.bundleID,
            pushType: nil, environment: evaluation.environment, now: evaluation.now)
        switch authenticator.authenticate(request) {
        case .accepted(let sender, let warnings):
            evaluation.sender = sender
            evaluation.warnings += warnings
            return nil
        case .rejected(let reason, let explanation, let token):
            evaluation.presentedToken = token
            return RuleRejection(reason == .topicDisallowed ? .topicMismatch : reason, explanation)
        }
    }

    /// The broadcast capability must be on for the app (`BroadcastSettings.disabledBundleIDs`):
    /// `400 FeatureNotEnabled` (A-BERR, A-BSETUP).
    public static let featureEnabled = BroadcastRule(id: "broadcast.feature", appliesTo: all) { evaluation in
        guard !evaluation.settings.isEnabled(for: evaluation.route.bundleID) else { return nil }
        return RuleRejection(
            .featureNotEnabled,
            "the broadcast capability is off for \(evaluation.route.bundleID) (broadcast.disabledBundleIDs): "
                + "enable Broadcast Push Notifications on the App ID")
    }

    /// `apns-request-id` (or `apns-id`), when sent, must be a canonical UUID: `400 BadMessageId` (A-CHAN, A-BERR).
    public static let requestID = BroadcastRule(id: "broadcast.request-id", appliesTo: all) { evaluation in
        guard let value = evaluation.requestID, !ApnsID.isCanonicalUUID(value) else { return nil }
        return RuleRejection(.badMessageId, "apns-request-id \"\(value)\" is not a UUID (8-4-4-4-12 hex digits)")
    }

    /// Read, delete and send need `apns-channel-id`: `400 MissingChannelId` (A-CHAN, A-BSEND, A-BERR).
    public static let channelIDPresent = BroadcastRule(id: "channel.id-present", appliesTo: BroadcastOperation.namingChannel) {
        evaluation in
        guard evaluation.channelID == nil else { return nil }
        return RuleRejection(.missingChannelId, "send the channel id in the apns-channel-id header")
    }

    /// The longest channel id the mock accepts. Apple says only "don't make assumptions on the channel ID size"
    /// (A-CHAN); the mock's ids are 24 characters.
    public static let maximumChannelIDLength = 256

    /// `apns-channel-id` must be standard base64 and not too long: `400 BadChannelId` (A-BERR).
    public static let channelIDEncoding = BroadcastRule(id: "channel.id-encoding", appliesTo: BroadcastOperation.namingChannel) {
        evaluation in
        guard let id = evaluation.channelID else { return nil }
        if id.utf8.count > maximumChannelIDLength {
            return RuleRejection(.badChannelId, "apns-channel-id is \(id.utf8.count) characters; channel ids are short base64 strings")
        }
        guard !id.isEmpty, Data(base64Encoded: id) != nil else {
            return RuleRejection(
                .badChannelId, "apns-channel-id \"\(id)\" is not base64: send the id exactly as the create answer's apns-channel-id header gave it")
        }
        return nil
    }

    /// The channel must exist for this app in this environment: `400 ChannelNotRegistered` (A-BERR). Deleted ids
    /// stay invalid forever; channels are per environment (A-CHAN).
    public static let channelRegistered = BroadcastRule(id: "channel.registered", appliesTo: BroadcastOperation.namingChannel) {
        evaluation in
        guard let id = evaluation.channelID else { return nil }
        if let channel = evaluation.channels.channel(
            id: id, bundleID: evaluation.route.bundleID, environment: evaluation.environment)
        {
            evaluation.channel = channel
            return nil
        }
        let why: String
        if evaluation.channels.wasDeleted(id: id) {
            why = "channel \(id) was deleted; deleted channel ids are never valid again"
        } else if let other = evaluation.channels.channel(id: id) {
            why = "channel \(id) belongs to \(other.bundleID) in \(other.environment.rawValue), not \(evaluation.route.bundleID) in \(evaluation.environment.rawValue)"
        } else {
            why = "no channel \(id) exists for \(evaluation.route.bundleID) in \(evaluation.environment.rawValue)"
        }
        return RuleRejection(.channelNotRegistered, why)
    }

    /// A send needs `apns-push-type`: `400 MissingPushType` (A-BSEND, A-BERR).
    public static let pushTypePresent = BroadcastRule(id: "send.push-type-present", appliesTo: [.send]) { evaluation in
        guard evaluation.request.value("apns-push-type") == nil else { return nil }
        return RuleRejection(.missingPushType, "a broadcast needs apns-push-type: liveactivity")
    }

    /// A send's `apns-push-type` must be `liveactivity` (any letter case: Apple's pages spell it three ways,
    /// A-BSEND): else `400 InvalidPushType` (A-BERR).
    public static let pushTypeValue = BroadcastRule(id: "send.push-type-value", appliesTo: [.send]) { evaluation in
        guard let value = evaluation.request.value("apns-push-type"), value.lowercased() != "liveactivity" else { return nil }
        return RuleRejection(.invalidPushType, "apns-push-type \"\(value)\": the only allowed value is LiveActivity")
    }

    /// A send needs `apns-priority` 10, 5 or 1: `400 BadPriority` (A-BSEND, A-BERR).
    public static let priority = BroadcastRule(id: "send.priority", appliesTo: [.send]) { evaluation in
        let value = evaluation.request.value("apns-priority")
        guard let value, ["10", "5", "1"].contains(value) else {
            return RuleRejection(
                .badPriority, value.map { "apns-priority \"\($0)\" is not 10, 5 or 1" } ?? "a broadcast needs apns-priority (10, 5 or 1)")
        }
        return nil
    }

    /// A send needs `apns-expiration`, a non-negative integer (UNIX seconds, or 0): `400 BadExpirationDate`
    /// (A-BSEND, A-BERR).
    public static let expirationFormat = BroadcastRule(id: "send.expiration-format", appliesTo: [.send]) { evaluation in
        let value = evaluation.request.value("apns-expiration")
        guard let value, let seconds = Int64(value), seconds >= 0 else {
            return RuleRejection(
                .badExpirationDate,
                value.map { "apns-expiration \"\($0)\" is not an epoch in seconds" } ?? "a broadcast needs apns-expiration (0 to deliver once)")
        }
        return nil
    }

    /// On a No Message Stored channel (`message-storage-policy` 0) `apns-expiration` must be 0:
    /// `400 BadExpirationDate` (A-BSEND, A-BERR).
    public static let expirationPolicy = BroadcastRule(id: "send.expiration-policy", appliesTo: [.send]) { evaluation in
        guard evaluation.channel?.storagePolicy == .noMessageStored,
              let value = evaluation.request.value("apns-expiration"), value != "0"
        else { return nil }
        return RuleRejection(
            .badExpirationDate,
            "channel \(evaluation.channel?.id ?? "") stores no messages (message-storage-policy 0): apns-expiration must be 0")
    }

    /// Create and send need a body: `400 PayloadEmpty` (A-BERR).
    public static let bodyPresent = BroadcastRule(id: "broadcast.body-present", appliesTo: [.createChannel, .send]) { evaluation in
        guard evaluation.request.bodyLength == 0 else { return nil }
        return RuleRejection(
            .payloadEmpty,
            evaluation.route.operation == .send
                ? "a broadcast needs a JSON payload with aps"
                : "a create needs {\"message-storage-policy\": 0 or 1, \"push-type\": \"LiveActivity\"}")
    }

    /// The largest broadcast payload (5 KB: A-BSEND).
    public static let maximumPayloadBytes = 5120

    /// A send's body is at most 5120 bytes: `413 PayloadTooLarge` (A-BSEND, A-BERR).
    public static let bodySize = BroadcastRule(id: "send.payload-size", appliesTo: [.send]) { evaluation in
        let size = evaluation.request.bodyLength
        guard size > maximumPayloadBytes else { return nil }
        return RuleRejection(.payloadTooLarge, "the payload is \(size) bytes; a broadcast allows \(maximumPayloadBytes)")
    }

    /// Create and send bodies must be a JSON object: `400 BadRequestPayload` (A-BERR).
    public static let bodyJSON = BroadcastRule(id: "broadcast.body-json", appliesTo: [.createChannel, .send]) { evaluation in
        guard let parsed = JSONValue.parse(evaluation.request.body), parsed.isObject else {
            return RuleRejection(.badRequestPayload, "the body is not a JSON object")
        }
        evaluation.payload = parsed
        return nil
    }

    /// A create body has only `message-storage-policy` and `push-type`: another key is `400 BadRequestParams`
    /// (A-BERR).
    public static let createUnknownKeys = BroadcastRule(id: "create.known-keys", appliesTo: [.createChannel]) { evaluation in
        let known: Set<String> = ["message-storage-policy", "push-type"]
        guard let unknown = evaluation.payload?.keys?.first(where: { !known.contains($0) }) else { return nil }
        return RuleRejection(
            .badRequestParams, "\"\(unknown)\" is not a channel attribute: send only message-storage-policy and push-type")
    }

    /// `message-storage-policy` must be 0 or 1: else `400 MissingChannelQueueSize` (undocumented, observed by
    /// LIB-hapns; A-CHAN documents the key as required).
    public static let createStoragePolicy = BroadcastRule(id: "create.storage-policy", appliesTo: [.createChannel]) { evaluation in
        let value = evaluation.payload?["message-storage-policy"]
        guard let number = value?.int64Value, let policy = MessageStoragePolicy(rawValue: Int(number)) else {
            return RuleRejection(
                .missingChannelQueueSize,
                value.map { "message-storage-policy is \($0.compactText); it must be 0 (no message stored) or 1 (most recent message stored)" }
                    ?? "the create body needs message-storage-policy: 0 (no message stored) or 1 (most recent message stored)")
        }
        evaluation.storagePolicy = policy
        return nil
    }

    /// A create needs `push-type` `LiveActivity`: missing is `400 MissingPushType`, another value
    /// `400 InvalidPushType` (A-CHAN, A-BERR). node-apn sends `liveactivity` (LIB-node-apn): accepted with a
    /// warning.
    public static let createPushType = BroadcastRule(id: "create.push-type", appliesTo: [.createChannel]) { evaluation in
        guard let value = evaluation.payload?["push-type"] else {
            return RuleRejection(.missingPushType, "the create body needs \"push-type\": \"LiveActivity\"")
        }
        guard let text = value.stringValue, text.lowercased() == "liveactivity" else {
            return RuleRejection(.invalidPushType, "push-type is \(value.compactText): the only allowed value is LiveActivity")
        }
        if text != "LiveActivity" {
            evaluation.warn(.pushTypeCasing, "push-type \"\(text)\" accepted; Apple's documentation spells it LiveActivity")
        }
        return nil
    }

    /// At most `BroadcastSettings.channelLimit` channels per app per environment: `400 CannotCreateChannelConfig`
    /// (A-CHAN, A-BERR).
    public static let channelLimit = BroadcastRule(id: "create.channel-limit", appliesTo: [.createChannel]) { evaluation in
        let count = evaluation.channels.channels(bundleID: evaluation.route.bundleID, environment: evaluation.environment).count
        guard count >= evaluation.settings.channelLimit else { return nil }
        return RuleRejection(.cannotCreateChannelConfig, channelLimitExplanation(evaluation))
    }

    static func channelLimitExplanation(_ evaluation: BroadcastEvaluation) -> String {
        "\(evaluation.route.bundleID) already has \(evaluation.settings.channelLimit) channels in "
            + "\(evaluation.environment.rawValue) (the limit): delete channels you no longer use"
    }

    /// Warnings on an accepted send: `start` (a broadcast cannot start an activity: A-LA), `end`, an ignored
    /// `apns-topic`, a channel nobody subscribed to.
    public static let sendAdvice = BroadcastRule(id: "send.advice", appliesTo: [.send]) { evaluation in
        switch evaluation.payload?["aps"]?["event"]?.stringValue {
        case "start":
            evaluation.warn(.startEvent, "a broadcast cannot start a Live Activity: start it with a push-to-start token and input-push-channel")
        case "end":
            evaluation.warn(.endEvent, "event end on a broadcast ends every subscribed activity (Apple's broadcast pages show update only)")
        default: break
        }
        if evaluation.request.value("apns-topic") != nil {
            evaluation.warn(.topicIgnored, "apns-topic is ignored on a broadcast: the bundle ID is in the path")
        }
        if let channel = evaluation.channel, channel.subscribers.isEmpty {
            evaluation.warn(.noSubscribers, "no activity on the simulated device subscribed to channel \(channel.id)")
        }
        return nil
    }

    private static func authenticateCertificate(
        _ certificate: PeerCertificate, _ evaluation: inout BroadcastEvaluation
    ) -> RuleRejection? {
        let bundleID = evaluation.route.bundleID
        // Broadcast is for Live Activities, but A-BSEND documents certificate connections for it: the check is the
        // certificate's trust, environment and topics, not the device-push rule that Live Activities need a token.
        let decision = CertificateAuthenticator().authenticate(.init(
            certificate: certificate, topic: bundleID, topicIsWellFormed: true, pushType: .alert,
            environment: evaluation.environment))
        switch decision {
        case .rejected(let reason, let explanation):
            return RuleRejection(reason == .topicDisallowed ? .topicMismatch : reason, explanation)
        case .accepted(let provider, _):
            if !evaluation.request.values("authorization").isEmpty {
                evaluation.warnings.append(PushWarningCode.tokenOnCertificateConnection.warning(
                    "this connection authenticated with the certificate for \(provider.bundleID); APNs ignores the "
                        + "authorization header on certificate connections (A-SEND), so the token was not checked"))
            }
            return nil
        }
    }
}
