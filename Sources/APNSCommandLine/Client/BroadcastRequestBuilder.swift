import HTTP2
import APNSCore

/// Turns a `PushNotification` with a channel into a broadcast send (A-BSEND): `POST /4/broadcasts/apps/<bundleId>`
/// with `apns-channel-id`, `apns-push-type: liveactivity`, `apns-priority` (10 unless given), `apns-expiration`
/// (0 unless given: the only value a no-storage channel accepts) and, when given, `apns-request-id`. The bundle ID
/// is `--bundle-id`, or `--topic` without its push-type suffix. Pure: `now` is an input.
package enum BroadcastRequestBuilder {
    package static func build(_ push: PushNotification, channelID: String, now: Timestamp) throws(PushBuildError) -> BuiltPush {
        guard !channelID.isEmpty else { throw PushBuildError("--channel is empty") }
        if let type = push.pushType, type != .liveactivity {
            throw PushBuildError("a broadcast is a Live Activity push: --push-type \(type.rawValue) does not go with --channel")
        }
        let suffix = PushType.liveactivity.topicSuffix
        var bundleID = push.bundleID ?? push.topic ?? ""
        if bundleID.hasSuffix(suffix) { bundleID.removeLast(suffix.count) }
        guard !bundleID.isEmpty, !bundleID.contains("/") else { throw PushBuildError("give --bundle-id for a broadcast") }
        var headers = [
            HeaderField("apns-channel-id", channelID), HeaderField("apns-push-type", PushType.liveactivity.rawValue),
            HeaderField("apns-priority", String(try PushRequestBuilder.resolvedPriority(push, pushType: .liveactivity) ?? 10)),
        ]
        guard (push.expiration ?? 0) >= 0 else { throw PushBuildError("--expiration is UNIX seconds (0 or more)") }
        headers.append(HeaderField("apns-expiration", String(push.expiration ?? 0)))
        if let apnsID = push.apnsID {
            guard PushRequestBuilder.isUUID(apnsID) else { throw PushBuildError("--apns-id must be a UUID, not \(apnsID)") }
            headers.append(HeaderField("apns-request-id", apnsID))
        }
        let body = try PushPayloadBuilder.body(for: push, pushType: .liveactivity, now: now)
        return BuiltPush(
            deviceToken: channelID, pushType: .liveactivity, topic: bundleID,
            request: HTTP2Request(method: "POST", path: "/4/broadcasts/apps/" + bundleID, headers: headers, body: body))
    }
}
