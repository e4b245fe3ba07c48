/// Facts about a TLS session, as the transport read them after the handshake.
public struct TLSInfo: Sendable, Hashable, Codable {
    /// The ALPN protocol agreed (`h2`), or nil when the client offered none (aioapns, Pushy).
    public var alpn: Optional<String>
    /// `TLSv1.2`, `TLSv1.3`.
    public var version: String
    public var cipher: String
    /// The SNI host name the client sent, if any.
    public var serverName: Optional<String>
    /// The client certificate, when the client presented one.
    public var clientCertificate: Optional<PeerCertificate>

    public init(
        alpn: String?, version: String, cipher: String, serverName: String?, clientCertificate: PeerCertificate? = nil
    ) {
        self.alpn = alpn
        self.version = version
        self.cipher = cipher
        self.serverName = serverName
        self.clientCertificate = clientCertificate
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
    public var tls: Optional<TLSInfo>
    /// The label of the listener that accepted the connection (`ListenerConfiguration.label`). Opaque to the
    /// transport; the application maps it to what a listener stands for (apns-mock: the APNs environment).
    public var listenerLabel: String

    public init(id: UInt64, remoteAddress: String, localPort: Int, tls: TLSInfo?, listenerLabel: String) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.localPort = localPort
        self.tls = tls
        self.listenerLabel = listenerLabel
    }

    /// A placeholder for requests built in tests without a socket (label `development`).
    public static let inMemory = ConnectionInfo(
        id: 0, remoteAddress: "in-memory", localPort: 0, tls: nil, listenerLabel: "development")
}
