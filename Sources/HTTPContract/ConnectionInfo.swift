/// Which APNs environment a listener or a push stands for. Source: A-SEND (hosts table); tokens, keys and
/// `apns-unique-id` depend on it (A-RESP, A-TOKEN).
public enum APNsEnvironment: String, Sendable, Codable, CaseIterable, Hashable {
    case development
    case production
}

/// Facts about a TLS session, as the transport read them after the handshake.
public struct TLSInfo: Sendable, Hashable, Codable {
    /// The ALPN protocol agreed (`h2`), or nil when the client offered none (aioapns, Pushy).
    public var alpn: String?
    /// `TLSv1.2`, `TLSv1.3`.
    public var version: String
    public var cipher: String
    /// The SNI host name the client sent, if any.
    public var serverName: String?

    public init(alpn: String?, version: String, cipher: String, serverName: String?) {
        self.alpn = alpn
        self.version = version
        self.cipher = cipher
        self.serverName = serverName
    }
}

/// Identity of one client connection; the same value accompanies every request on it.
public struct ConnectionInfo: Sendable, Hashable, Codable {
    /// Unique for the life of the process.
    public var id: UInt64
    /// `127.0.0.1:53422`.
    public var remoteAddress: String
    /// The local port the client connected to.
    public var localPort: Int
    /// nil for cleartext (h2c prior knowledge).
    public var tls: TLSInfo?
    /// The environment of the listener that accepted the connection.
    public var environment: APNsEnvironment

    public init(id: UInt64, remoteAddress: String, localPort: Int, tls: TLSInfo?, environment: APNsEnvironment) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.localPort = localPort
        self.tls = tls
        self.environment = environment
    }

    /// A placeholder for requests built in tests without a socket.
    public static let inMemory = ConnectionInfo(
        id: 0, remoteAddress: "in-memory", localPort: 0, tls: nil, environment: .development)
}
