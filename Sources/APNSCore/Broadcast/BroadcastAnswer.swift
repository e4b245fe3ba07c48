import APNSJSON

/// The broadcast rules' answer to one management or send request: the HTTP answer APNs would give and what the
/// record keeps. Built by `BroadcastDecider`.
public struct BroadcastAnswer: Sendable {
    public var operation: BroadcastOperation?
    public var bundleID: String?
    public var status: Int
    /// APNs' reason; nil on success.
    public var reason: Reason?
    /// What to change, in plain words; nil on a clean success.
    public var explanation: String?
    /// The rule that decided (`BroadcastRule.id`); nil on success.
    public var ruleID: String?
    public var warnings: [PushWarning]
    public var sender: AuthenticatedSender?
    /// What was read of a refused provider token, for the record.
    public var presentedToken: PresentedToken?
    public var environment: APNsEnvironment
    /// The `apns-request-id` answered with (the client's, else a new one).
    public var requestID: String
    /// `apns-unique-id` of an accepted send.
    public var uniqueID: String?
    /// The channel created, read, deleted or sent to.
    public var channel: BroadcastChannel?
    /// The ids a list answered with.
    public var listedChannelIDs: [String]?
    /// The parsed payload of a send (for the device fan-out).
    public var payload: JSONValue?

    public var isAccepted: Bool { reason == nil }

    /// The HTTP response. Errors: `content-type: application/json`, `apns-request-id`, `{"reason": …}` (A-BERR).
    /// Create: 201 with `apns-request-id` and `apns-channel-id`, no body. Read: 200 with the channel's
    /// configuration. Delete: 204. List: 200 `{"channels": […]}` (A-CHAN; the list body is documented both as
    /// empty and as this object: clients parse the object). Send: 200 with `apns-request-id`, `apns-id` (the same
    /// value, which LIB-hapns reads first) and `apns-unique-id` (A-BSEND).
    public func response() -> HTTPResponse {
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
