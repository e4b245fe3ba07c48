import Foundation

/// One fault to inject: which requests it matches, what it does to them, and for how long. The JSON form is one
/// object of match keys, exactly one action and optional scope keys (docs/configuration.md, "Fault injection"):
/// `{"deviceToken": "…", "status": 410, "reason": "Unregistered", "remaining": 1}`.
///
/// Decoding is strict, so a spec is either understood whole or refused with a message naming the problem: unknown
/// keys, empty match values, a reason APNs does not send (A-RESP), no action or two actions are all errors.
package struct FaultSpec: Sendable, Equatable {
    package var match: FaultMatch
    package var action: FaultAction
    package var scope: FaultScope

    package init(match: FaultMatch = FaultMatch(), action: FaultAction, scope: FaultScope = FaultScope()) {
        self.match = match
        self.action = action
        self.scope = scope
    }
}

/// Which requests a fault applies to; a nil key matches every request.
package struct FaultMatch: Sendable, Equatable {
    package var deviceToken: String?
    package var topic: String?
    package var keyID: String?
    package var teamID: String?
    /// The connection id (as in delivery records' `connectionId`).
    package var connection: UInt64?
    package var pushType: String?

    package init(
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
package enum FaultAction: Sendable, Equatable {
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
    package var name: String {
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
package struct FaultGoAway: Sendable, Equatable {
    package enum Timing: String, Sendable, Equatable, CaseIterable { case answer, before }
    package var reason: Reason
    /// `answer`: the request is answered, then GOAWAY. `before`: GOAWAY first; the request is answered only when
    /// `lastStreamID` covers it (by default it does not: the client must retry it on a new connection).
    package var after: Timing
    package var lastStreamID: Int32?
    /// Only requests that are at least the `afterStreams`-th on their connection match ("GOAWAY after N streams").
    package var afterStreams: Int?

    package init(reason: Reason = .shutdown, after: Timing = .answer, lastStreamID: Int32? = nil, afterStreams: Int? = nil) {
        self.reason = reason
        self.after = after
        self.lastStreamID = lastStreamID
        self.afterStreams = afterStreams
    }
}

/// HTTP/2 error codes by their RFC 9113 §7 names.
package enum FaultResetCode: String, Sendable, Equatable, CaseIterable {
    case NO_ERROR, PROTOCOL_ERROR, INTERNAL_ERROR, FLOW_CONTROL_ERROR, SETTINGS_TIMEOUT, STREAM_CLOSED
    case FRAME_SIZE_ERROR, REFUSED_STREAM, CANCEL, COMPRESSION_ERROR, CONNECT_ERROR, ENHANCE_YOUR_CALM
    case INADEQUATE_SECURITY, HTTP_1_1_REQUIRED

    package var code: UInt32 { UInt32(Self.allCases.firstIndex(of: self)!) }
}

/// For how long and how often a fault fires. Checks run in this order: time window, then the match counter
/// (`every`), then the seeded draw (`probability`), then `remaining`.
package struct FaultScope: Sendable, Equatable {
    /// Fire for the next N requests that pass the other checks, then the spec is removed.
    package var remaining: Int?
    /// Fire on every Nth matching request (the Nth, 2Nth, …).
    package var every: Int?
    /// Fire with this probability, drawn from a pseudo-random sequence seeded with `seed`.
    package var probability: Double?
    /// Seed of the sequence; the same seed gives the same decisions for the same sequence of requests. When
    /// absent, one is chosen at random and shown by `GET /api/config/faults`.
    package var seed: UInt64?
    /// UNIX seconds; the fault applies only from this time on.
    package var from: Double?
    /// UNIX seconds; the fault applies only before this time.
    package var until: Double?

    package init(remaining: Int? = nil, every: Int? = nil, probability: Double? = nil, seed: UInt64? = nil, from: Double? = nil, until: Double? = nil) {
        self.remaining = remaining
        self.every = every
        self.probability = probability
        self.seed = seed
        self.from = from
        self.until = until
    }
}

/// Why a fault spec was refused; `description` is the message the admin API and the start-up error show.
package struct FaultSpecError: Error, CustomStringConvertible, Equatable {
    package let description: String
    package init(_ description: String) { self.description = description }
}
