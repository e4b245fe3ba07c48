
/// What the pipeline remembers about one client connection: the stream limit it last announced.
public struct PushConnectionState: Sendable, Hashable {
    /// APNs allows one stream until the first valid provider token, then many (A-SEND, A-CONN: "APNs allows only
    /// one stream until you post a request with a valid authentication token"; 1000 observed).
    public static let streamsBeforeAuthentication: UInt32 = 1
    public static let streamsAfterAuthentication: UInt32 = 1000

    /// SETTINGS_MAX_CONCURRENT_STREAMS as last told to the client.
    public private(set) var announcedMaxConcurrentStreams: UInt32
    /// Requests seen on this connection (fault specs' `every`, `goaway.afterStreams`).
    public private(set) var requestsOnConnection = 0
    /// A fault announced its own stream limit; authenticating no longer changes it.
    public private(set) var streamLimitFromFault = false

    /// A new connection: one stream when it must authenticate with a token, else the full limit at once.
    public init(requiresTokenAuthentication: Bool) {
        announcedMaxConcurrentStreams = requiresTokenAuthentication
            ? Self.streamsBeforeAuthentication : Self.streamsAfterAuthentication
    }

    /// The SETTINGS change to send now that the connection has (or has not yet) authenticated; nil when the
    /// client already knows the limit. Announces the raised limit once.
    mutating func streamLimitChange(hasAuthenticated: Bool) -> ConnectionAction? {
        guard !streamLimitFromFault, hasAuthenticated, announcedMaxConcurrentStreams != Self.streamsAfterAuthentication else { return nil }
        announcedMaxConcurrentStreams = Self.streamsAfterAuthentication
        return .setMaxConcurrentStreams(Self.streamsAfterAuthentication)
    }

    /// Counts one more request on the connection; returns its number (1 for the first).
    mutating func countRequest() -> Int {
        requestsOnConnection += 1
        return requestsOnConnection
    }

    /// A fault's SETTINGS change of the stream limit, which the connection keeps from then on.
    mutating func announceFromFault(_ limit: UInt32) {
        announcedMaxConcurrentStreams = limit
        streamLimitFromFault = true
    }
}
