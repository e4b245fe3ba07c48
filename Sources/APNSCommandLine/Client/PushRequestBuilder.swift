import HTTP2
import APNSCore
import Foundation

/// Turns a `PushNotification` into the request APNs expects (A-SEND): `POST /3/device/<token>` with `apns-topic`
/// (the bundle ID plus the push type's suffix, `PushType.topicSuffix`), `apns-push-type`, the optional headers,
/// and a JSON body built from the flags. Pure: `now` is an input.
package enum PushRequestBuilder {
    package static func build(_ push: PushNotification, now: Timestamp) throws(PushBuildError) -> BuiltPush {
        if let channelID = push.channelID { return try BroadcastRequestBuilder.build(push, channelID: channelID, now: now) }
        let token = normalizedToken(push.deviceToken)
        guard !token.isEmpty else { throw PushBuildError("--device-token is empty") }
        // Letters other than a–f still go out (APNs answers BadDeviceToken, which is worth seeing); what cannot be
        // part of a URL path does not.
        guard token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw PushBuildError("--device-token must be hex digits, not \(push.deviceToken)")
        }
        let pushType = try resolvedPushType(push)
        let topic = try resolvedTopic(push, pushType: pushType)
        var headers = [HeaderField("apns-topic", topic), HeaderField("apns-push-type", pushType.rawValue)]
        if let priority = try resolvedPriority(push, pushType: pushType) {
            headers.append(HeaderField("apns-priority", String(priority)))
        }
        if let expiration = push.expiration {
            guard expiration >= 0 else { throw PushBuildError("--expiration is UNIX seconds (0 or more), not \(expiration)") }
            headers.append(HeaderField("apns-expiration", String(expiration)))
        }
        if let collapseID = push.collapseID {
            guard collapseID.utf8.count <= 64 else {
                throw PushBuildError("--collapse-id is \(collapseID.utf8.count) bytes; APNs allows at most 64")
            }
            headers.append(HeaderField("apns-collapse-id", collapseID))
        }
        if let apnsID = push.apnsID {
            guard isUUID(apnsID) else { throw PushBuildError("--apns-id must be a UUID such as 123e4567-e89b-12d3-a456-4266554400a0, not \(apnsID)") }
            headers.append(HeaderField("apns-id", apnsID))
        }
        let body = try PushPayloadBuilder.body(for: push, pushType: pushType, now: now)
        return BuiltPush(
            deviceToken: token, pushType: pushType, topic: topic,
            request: HTTP2Request(method: "POST", path: "/3/device/" + token, headers: headers, body: body))
    }

    /// Tokens pasted from logs: spaces and angle brackets (`<a1b2 c3d4 …>`, the old `description` form) removed.
    package static func normalizedToken(_ text: String) -> String {
        String(text.filter { !$0.isWhitespace && $0 != "<" && $0 != ">" })
    }

    static func resolvedPushType(_ push: PushNotification) throws(PushBuildError) -> PushType {
        let type = push.pushType ?? (push.event != nil ? .liveactivity : .alert)
        if type != .liveactivity {
            let liveActivityFlags: [(String, Bool)] = [
                ("--event", push.event != nil), ("--content-state", push.contentState != nil),
                ("--attributes-type", push.attributesType != nil), ("--attributes", push.attributes != nil),
                ("--dismissal-date", push.dismissalDate != nil), ("--input-push-token", push.inputPushToken),
                ("--input-push-channel", push.inputPushChannel != nil),
            ]
            if let flag = liveActivityFlags.first(where: \.1) {
                throw PushBuildError("\(flag.0) is for Live Activity pushes; use --push-type liveactivity (not \(type.rawValue))")
            }
        }
        return type
    }

    /// `--topic` as given; else the bundle ID with the push type's suffix (not doubled when already there).
    static func resolvedTopic(_ push: PushNotification, pushType: PushType) throws(PushBuildError) -> String {
        if let topic = push.topic {
            guard !topic.isEmpty else { throw PushBuildError("--topic is empty") }
            return topic
        }
        guard let bundleID = push.bundleID, !bundleID.isEmpty else {
            throw PushBuildError("give --bundle-id (the topic is derived from it) or --topic")
        }
        if pushType == .mdm {
            throw PushBuildError("mdm pushes go to the topic of the MDM certificate (its UID): give --topic")
        }
        let suffix = pushType.topicSuffix
        return bundleID.hasSuffix(suffix) ? bundleID : bundleID + suffix
    }

    /// The priority given, or 5 for `background` (A-SEND: "Using priority 10 is an error" for background pushes).
    static func resolvedPriority(_ push: PushNotification, pushType: PushType) throws(PushBuildError) -> Int? {
        if let priority = push.priority {
            guard [1, 5, 10].contains(priority) else { throw PushBuildError("--priority is 10, 5 or 1 (A-SEND), not \(priority)") }
            return priority
        }
        return pushType == .background ? 5 : nil
    }

    static func isUUID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
