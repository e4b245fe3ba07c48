import APNSCore
import Synchronization

/// Connection-level fault injection, changeable at run time (admin API `serverFaults`, config key `faults`):
/// what happens between `accept` and the first HTTP/2 frame, and how many connections are allowed.
public struct ConnectionFaultSettings: Sendable, Equatable, Codable {
    /// Every accepted connection waits this long before the server looks at it (TLS and h2c alike).
    public var acceptDelayMs: Int?
    /// TLS connections wait this long before the server answers the client's ClientHello: the handshake stalls.
    public var handshakeStallMs: Int?
    /// Connections beyond this many open ones are closed right after `accept` (nil: no limit).
    public var maxConnections: Int?

    public init(acceptDelayMs: Int? = nil, handshakeStallMs: Int? = nil, maxConnections: Int? = nil) {
        self.acceptDelayMs = acceptDelayMs
        self.handshakeStallMs = handshakeStallMs
        self.maxConnections = maxConnections
    }

    /// The milliseconds a new connection waits before the server starts on it.
    func startDelay(tls: Bool) -> Int {
        max(0, acceptDelayMs ?? 0) + (tls ? max(0, handshakeStallMs ?? 0) : 0)
    }
}

/// The shared, thread-safe holder of `ConnectionFaultSettings` and the server-wide count of open connections.
public final class ConnectionFaults: Sendable {
    private let settings: Locked<ConnectionFaultSettings>
    let openConnections = Atomic<Int>(0)

    public init(_ initial: ConnectionFaultSettings = ConnectionFaultSettings()) {
        settings = Locked(initial)
    }

    public var current: ConnectionFaultSettings {
        get { settings.withLock { $0 } }
        set { settings.withLock { $0 = newValue } }
    }
}
