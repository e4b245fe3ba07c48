import Dispatch

/// The deadlines of one connection, in monotonic nanoseconds (pure: the driver's timer asks what to do now and
/// when to look again).
/// - handshake: the TLS handshake and the HTTP/2 client preface must be complete `handshakeTimeout` after accept
///   (3,000 partial ClientHellos once stayed open forever);
/// - incomplete stream: a request not ended `incompleteStreamTimeout` after its HEADERS is reset;
/// - idle: with no open stream and nothing received for `idleTimeout`, GOAWAY(NO_ERROR), then close once it is
///   flushed (or `handshakeTimeout` later if the client does not read).
struct ConnectionTimeouts {
    enum Action: Equatable {
        case close
        case resetIncompleteStreams(startedBefore: UInt64)
        case goAwayIdle
        case wait
    }

    let handshake: UInt64
    let idle: UInt64
    let incompleteStream: UInt64
    let acceptedAt: UInt64
    var lastActivity: UInt64
    var goAwaySentAt: UInt64?

    init(settings: TransportSettings, acceptedAt: UInt64) {
        handshake = Self.nanoseconds(settings.handshakeTimeout)
        idle = Self.nanoseconds(settings.idleTimeout)
        incompleteStream = Self.nanoseconds(settings.incompleteStreamTimeout)
        self.acceptedAt = acceptedAt
        lastActivity = acceptedAt
    }

    static func uptime() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return .max / 2 }
        return UInt64(min(seconds, 1e9) * 1e9)
    }

    func action(now: UInt64, handshakeDone: Bool, openStreams: Int, oldestIncompleteStream: UInt64?, closing: Bool) -> Action {
        if !handshakeDone { return now &- acceptedAt >= handshake ? .close : .wait }
        if let goAwaySentAt { return now &- goAwaySentAt >= handshake ? .close : .wait }
        if let oldest = oldestIncompleteStream, now &- oldest >= incompleteStream {
            return .resetIncompleteStreams(startedBefore: now - incompleteStream + 1)
        }
        if openStreams == 0 && !closing && now &- lastActivity >= idle { return .goAwayIdle }
        return .wait
    }

    /// Nanoseconds until the next deadline (at least 1 ms).
    func nextCheck(handshakeDone: Bool, openStreams: Int, oldestIncompleteStream: UInt64?, now: UInt64 = uptime()) -> UInt64 {
        var deadline: UInt64
        if !handshakeDone {
            deadline = acceptedAt &+ handshake
        } else if let goAwaySentAt {
            deadline = goAwaySentAt &+ handshake
        } else {
            deadline = lastActivity &+ idle
            if let oldest = oldestIncompleteStream { deadline = min(deadline, oldest &+ incompleteStream) }
        }
        return max(1_000_000, deadline > now ? deadline - now : 0)
    }
}
