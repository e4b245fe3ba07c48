import HTTPContract
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

    private enum CodingKeys: String, CodingKey, CaseIterable { case acceptDelayMs, handshakeStallMs, maxConnections }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Strict: unknown keys and negative values are refused, so a misspelled setting never goes unnoticed.
    public init(from decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        let known = CodingKeys.allCases.map(\.rawValue)
        if let unknown = all.allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "unknown key \"\(unknown)\"; use \(known.joined(separator: ", "))"))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func value(_ key: CodingKeys) throws -> Int? {
            guard let value = try container.decodeIfPresent(Int.self, forKey: key) else { return nil }
            guard value >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "must not be negative")
            }
            return value
        }
        acceptDelayMs = try value(.acceptDelayMs)
        handshakeStallMs = try value(.handshakeStallMs)
        maxConnections = try value(.maxConnections)
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
