import APNSJSON

/// The state one broadcast or channel-management request accumulates while the broadcast rules run.
public struct BroadcastEvaluation {
    public let request: HTTPRequest
    public let route: BroadcastRoute
    public let settings: BroadcastSettings
    public let channels: ChannelRegistry
    public let authenticator: (any ConnectionAuthenticator)?
    public let environment: APNsEnvironment
    public let now: Timestamp

    public var warnings: [PushWarning] = []
    public var sender: AuthenticatedSender?
    /// What was read of a refused provider token, for the record.
    public var presentedToken: PresentedToken?
    /// The channel named by `apns-channel-id`, once `channel.registered` found it.
    public var channel: BroadcastChannel?
    /// The parsed body (create: the channel configuration; send: the notification payload).
    public var payload: JSONValue?
    /// A create's `message-storage-policy`, once `create.storage-policy` read it.
    public var storagePolicy: MessageStoragePolicy?

    public init(
        request: HTTPRequest, route: BroadcastRoute, settings: BroadcastSettings, channels: ChannelRegistry,
        authenticator: (any ConnectionAuthenticator)?, environment: APNsEnvironment, now: Timestamp
    ) {
        self.request = request
        self.route = route
        self.settings = settings
        self.channels = channels
        self.authenticator = authenticator
        self.environment = environment
        self.now = now
    }

    /// `apns-channel-id` as sent.
    public var channelID: String? { request.value("apns-channel-id") }

    /// The request id: `apns-request-id`, else `apns-id` (A-BSEND's token sample sends `apns-id`).
    public var requestID: String? { request.value("apns-request-id") ?? request.value("apns-id") }

    public mutating func warn(_ code: BroadcastWarningCode, _ message: String) {
        warnings.append(PushWarning(code: code.rawValue, message: message))
    }
}

/// Accepted-but-noteworthy findings on broadcast and channel-management requests: where Apple's documents and
/// the libraries disagree, the mock accepts what libraries send and says so.
public enum BroadcastWarningCode: String, Sendable, CaseIterable {
    /// The create body's `push-type` is not spelled `LiveActivity` (node-apn sends `liveactivity`: LIB-node-apn).
    case pushTypeCasing = "broadcast-push-type-casing"
    /// A send whose `aps.event` is `start`: a broadcast cannot start an activity (A-LA); no activity is started.
    case startEvent = "broadcast-start-event"
    /// A send whose `aps.event` is `end`: Apple's broadcast pages show only updates (A-BSEND); the mock ends every
    /// subscribed activity, as a device-token `end` would.
    case endEvent = "broadcast-end-event"
    /// A channel with no subscribed activity on the simulated device: the send reaches nobody.
    case noSubscribers = "broadcast-no-subscribers"
    /// `apns-topic` on a send: ignored by APNs (hapns sends it: LIB-hapns).
    case topicIgnored = "broadcast-topic-ignored"
}
