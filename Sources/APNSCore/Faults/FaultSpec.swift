import Foundation

/// One fault to inject: which requests it matches, what it does to them, and for how long. The JSON form is one
/// object of match keys, exactly one action and optional scope keys (docs/configuration.md, "Fault injection"):
/// `{"deviceToken": "…", "status": 410, "reason": "Unregistered", "remaining": 1}`.
///
/// Decoding is strict, so a spec is either understood whole or refused with a message naming the problem: unknown
/// keys, empty match values, a reason APNs does not send (A-RESP), no action or two actions are all errors.
public struct FaultSpec: Sendable, Equatable {
    public var match: FaultMatch
    public var action: FaultAction
    public var scope: FaultScope

    public init(match: FaultMatch = FaultMatch(), action: FaultAction, scope: FaultScope = FaultScope()) {
        self.match = match
        self.action = action
        self.scope = scope
    }
}

/// Which requests a fault applies to; a nil key matches every request.
public struct FaultMatch: Sendable, Equatable {
    public var deviceToken: String?
    public var topic: String?
    public var keyID: String?
    public var teamID: String?
    /// The connection id (as in delivery records' `connectionId`).
    public var connection: UInt64?
    public var pushType: String?

    public init(
        deviceToken: String? = nil, topic: String? = nil, keyID: String? = nil, teamID: String? = nil,
        connection: UInt64? = nil, pushType: String? = nil
    ) {
        self.deviceToken = deviceToken?.lowercased()  // tokens compare case-insensitively
        self.topic = topic
        self.keyID = keyID
        self.teamID = teamID
        self.connection = connection
        self.pushType = pushType
    }
}

/// What a fault does to a matching request.
public enum FaultAction: Sendable, Equatable {
    /// Answer with this status and reason instead of the rules' answer (410 carries `timestamp`, A-RESP);
    /// `goAway` (legacy key) sends GOAWAY with `{"reason": …}` after the answer (A-SEND).
    case answer(status: Int, reason: Reason?, timestamp: Int64?, goAway: Bool)
    /// RST_STREAM with this HTTP/2 error code instead of an answer.
    case resetStream(FaultResetCode)
    /// Never answer; the stream stays open until the client resets it or the connection closes.
    case blackHole
    /// Answer normally after a delay drawn uniformly from `min...max` milliseconds.
    case delay(minMilliseconds: Int, maxMilliseconds: Int)
    /// GOAWAY with APNs' JSON debug data `{"reason": …}`.
    case goAway(FaultGoAway)
    /// Close the TCP connection at once, without GOAWAY and without answering.
    case closeConnection
    /// Answer normally and send SETTINGS with this SETTINGS_MAX_CONCURRENT_STREAMS.
    case maxConcurrentStreams(UInt32)
    /// Answer the next `n` pushes to each matching token normally, then treat the token as unregistered.
    case unregisterAfter(Int)

    /// The action's key in the JSON form.
    public var name: String {
        switch self {
        case .answer: "status"
        case .resetStream: "resetStream"
        case .blackHole: "blackHole"
        case .delay: "delayMs"
        case .goAway: "goaway"
        case .closeConnection: "closeConnection"
        case .maxConcurrentStreams: "maxConcurrentStreams"
        case .unregisterAfter: "unregisterAfter"
        }
    }
}

/// GOAWAY fault: when it is sent relative to the answer, and which last-stream-id it names.
public struct FaultGoAway: Sendable, Equatable {
    public enum Timing: String, Sendable, Equatable, CaseIterable { case answer, before }
    public var reason: Reason
    /// `answer`: the request is answered, then GOAWAY. `before`: GOAWAY first; the request is answered only when
    /// `lastStreamID` covers it (by default it does not: the client must retry it on a new connection).
    public var after: Timing
    public var lastStreamID: Int32?
    /// Only requests that are at least the `afterStreams`-th on their connection match ("GOAWAY after N streams").
    public var afterStreams: Int?

    public init(reason: Reason = .shutdown, after: Timing = .answer, lastStreamID: Int32? = nil, afterStreams: Int? = nil) {
        self.reason = reason
        self.after = after
        self.lastStreamID = lastStreamID
        self.afterStreams = afterStreams
    }
}

/// HTTP/2 error codes by their RFC 9113 §7 names.
public enum FaultResetCode: String, Sendable, Equatable, CaseIterable {
    case NO_ERROR, PROTOCOL_ERROR, INTERNAL_ERROR, FLOW_CONTROL_ERROR, SETTINGS_TIMEOUT, STREAM_CLOSED
    case FRAME_SIZE_ERROR, REFUSED_STREAM, CANCEL, COMPRESSION_ERROR, CONNECT_ERROR, ENHANCE_YOUR_CALM
    case INADEQUATE_SECURITY, HTTP_1_1_REQUIRED

    public var code: UInt32 { UInt32(Self.allCases.firstIndex(of: self)!) }
}

/// For how long and how often a fault fires. Checks run in this order: time window, then the match counter
/// (`every`), then the seeded draw (`probability`), then `remaining`.
public struct FaultScope: Sendable, Equatable {
    /// Fire for the next N requests that pass the other checks, then the spec is removed.
    public var remaining: Int?
    /// Fire on every Nth matching request (the Nth, 2Nth, …).
    public var every: Int?
    /// Fire with this probability, drawn from a pseudo-random sequence seeded with `seed`.
    public var probability: Double?
    /// Seed of the sequence; the same seed gives the same decisions for the same sequence of requests. When
    /// absent, one is chosen at random and shown by `GET /api/config/faults`.
    public var seed: UInt64?
    /// UNIX seconds; the fault applies only from this time on.
    public var from: Double?
    /// UNIX seconds; the fault applies only before this time.
    public var until: Double?

    public init(remaining: Int? = nil, every: Int? = nil, probability: Double? = nil, seed: UInt64? = nil, from: Double? = nil, until: Double? = nil) {
        self.remaining = remaining
        self.every = every
        self.probability = probability
        self.seed = seed
        self.from = from
        self.until = until
    }
}

/// Why a fault spec was refused; `description` is the message the admin API and the start-up error show.
public struct FaultSpecError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
