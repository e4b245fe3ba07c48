/// What a sender must do after each APNs error reason (A-RESP; Apple's guidance on the developer forums, F-807380:
/// do not retry BadDeviceToken, DeviceTokenNotForTopic, Forbidden, ExpiredToken, Unregistered, PayloadTooLarge;
/// TooManyRequests may be retried after a delay). Data, one line per reason.
package enum ReasonPolicy: String, Sendable, Equatable {
    /// The request is wrong: sending it again unchanged gets the same answer.
    case permanent
    /// The device token is gone (410): never push to it again.
    case tokenGone
    /// Make a fresh provider token and send again.
    case refreshProviderToken
    /// Send again later, with back-off.
    case retryLater

    package static let table: [String: ReasonPolicy] = [
        "BadCollapseId": .permanent, "BadDeviceToken": .permanent, "BadExpirationDate": .permanent,
        "BadMessageId": .permanent, "BadPriority": .permanent, "BadTopic": .permanent,
        "DeviceTokenNotForTopic": .permanent, "DuplicateHeaders": .permanent, "IdleTimeout": .retryLater,
        "InvalidPushType": .permanent, "MissingDeviceToken": .permanent, "MissingTopic": .permanent,
        "PayloadEmpty": .permanent, "TopicDisallowed": .permanent, "BadCertificate": .permanent,
        "BadCertificateEnvironment": .permanent, "ExpiredProviderToken": .refreshProviderToken,
        "Forbidden": .permanent, "InvalidProviderToken": .permanent, "MissingProviderToken": .permanent,
        "UnrelatedKeyIdInToken": .permanent, "BadEnvironmentKeyInToken": .permanent, "BadPath": .permanent,
        "MethodNotAllowed": .permanent, "ExpiredToken": .tokenGone, "Unregistered": .tokenGone,
        "PayloadTooLarge": .permanent, "TooManyProviderTokenUpdates": .retryLater, "TooManyRequests": .retryLater,
        "InternalServerError": .retryLater, "ServiceUnavailable": .retryLater, "Shutdown": .retryLater,
        // Apple's table spells BadEnvironmentKeyIdInToken; MissingPushType and TopicMismatch are in it too (A-RESP).
        "BadEnvironmentKeyIdInToken": .permanent, "MissingPushType": .permanent, "TopicMismatch": .permanent,
        // Broadcast and channel-management reasons (A-BERR).
        "BadChannelId": .permanent, "BadRequestParams": .permanent, "BadRequestPayload": .permanent,
        "CannotCreateChannelConfig": .permanent, "ChannelNotRegistered": .permanent, "FeatureNotEnabled": .permanent,
        "MissingChannelId": .permanent, "MissingChannelQueueSize": .permanent,
    ]

    /// The policy for an answer; by status when the reason is not one Apple documents.
    package static func of(status: Int, reason: String?) -> ReasonPolicy? {
        if status == 200 { return nil }
        if let reason, let known = table[reason] { return known }
        switch status {
        case 410: return .tokenGone
        case 429, 500, 503: return .retryLater
        case 400, 403, 405, 413: return .permanent
        default: return nil
        }
    }

    package static func isKnown(_ reason: String) -> Bool { table[reason] != nil }
}
