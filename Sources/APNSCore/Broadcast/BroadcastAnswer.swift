import APNSJSON

/// The broadcast rules' answer to one management or send request: the HTTP answer APNs would give and what the
/// record keeps. Built by `BroadcastDecider`.
package struct BroadcastAnswer: Sendable {
    package var operation: BroadcastOperation?
    package var bundleID: String?
    package var status: Int
    /// APNs' reason; nil on success.
    package var reason: Reason?
    /// What to change, in plain words; nil on a clean success.
    package var explanation: String?
    /// The rule that decided (`BroadcastRule.id`); nil on success.
    package var ruleID: String?
    package var warnings: [PushWarning]
    package var sender: AuthenticatedSender?
    /// What was read of a refused provider token, for the record.
    package var presentedToken: PresentedToken?
    package var environment: APNsEnvironment
    /// The `apns-request-id` answered with (the client's, else a new one).
    package var requestID: String
    /// `apns-unique-id` of an accepted send.
    package var uniqueID: String?
    /// The channel created, read, deleted or sent to.
    package var channel: BroadcastChannel?
    /// The ids a list answered with.
    package var listedChannelIDs: [String]?
    /// The parsed payload of a send (for the device fan-out).
    package var payload: JSONValue?

    package var isAccepted: Bool { reason == nil }

    /// The HTTP response. Errors: `content-type: application/json`, `apns-request-id`, `{"reason": …}` (A-BERR).
    /// Create: 201 with `apns-request-id` and `apns-channel-id`, no body. Read: 200 with the channel's
    /// configuration. Delete: 204. List: 200 `{"channels": […]}` (A-CHAN; the list body is documented both as
    /// empty and as this object: clients parse the object). Send: 200 with `apns-request-id`, `apns-id` (the same
    /// value, which LIB-hapns reads first) and `apns-unique-id` (A-BSEND).
    package func response() -> HTTPResponse {
        var headers: [HeaderField] = []
        if let reason {
            headers.append(HeaderField("content-type", "application/json"))
            headers.append(HeaderField("apns-request-id", requestID))
            return HTTPResponse(status: status, headers: headers, body: Self.json(.object([
                JSONMember("reason", .string(reason.rawValue)),
            ])))
        }
        headers.append(HeaderField("apns-request-id", requestID))
        switch operation {
        case .createChannel:
            if let channel { headers.append(HeaderField("apns-channel-id", channel.id)) }
            return HTTPResponse(status: 201, headers: headers)
        case .readChannel:
            headers.insert(HeaderField("content-type", "application/json"), at: 0)
            return HTTPResponse(status: 200, headers: headers, body: Self.json(.object([
                JSONMember("message-storage-policy", .number(String(channel?.storagePolicy.rawValue ?? 0))),
                JSONMember("push-type", .string("LiveActivity")),
            ])))
        case .deleteChannel:
            return HTTPResponse(status: 204, headers: headers)
        case .listChannels:
            headers.insert(HeaderField("content-type", "application/json"), at: 0)
            return HTTPResponse(status: 200, headers: headers, body: Self.json(.object([
                JSONMember("channels", .array((listedChannelIDs ?? []).map { .string($0) })),
            ])))
        case .send, nil:
            headers.append(HeaderField("apns-id", requestID))
            if let uniqueID { headers.append(HeaderField("apns-unique-id", uniqueID)) }
            return HTTPResponse(status: 200, headers: headers)
        }
    }

    static func json(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(value)
        return writer.bytes
    }
}
