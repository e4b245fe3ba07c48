/// Facts about a TLS session, as the transport read them after the handshake.
package struct TLSInfo: Sendable, Hashable, Codable {
    /// The ALPN protocol agreed (`h2`), or nil when the client offered none (aioapns, Pushy).
    package var alpn: Optional<String>
    /// `TLSv1.2`, `TLSv1.3`.
    package var version: String
    package var cipher: String
    /// The SNI host name the client sent, if any.
    package var serverName: Optional<String>
    /// The client certificate, when the client presented one.
    package var clientCertificate: Optional<PeerCertificate>

    package init(
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
package struct ConnectionInfo: Sendable, Hashable, Codable {
    /// Unique for the life of the process.
    package var id: UInt64
    /// `127.0.0.1:53422`.
    package var remoteAddress: String
    /// The local port the client connected to.
    package var localPort: Int
    /// nil for cleartext (h2c prior knowledge).
    package var tls: Optional<TLSInfo>
    /// The label of the listener that accepted the connection (`ListenerConfiguration.label`). Opaque to the
    /// transport; the application maps it to what a listener stands for (apns-mock: the APNs environment).
    package var listenerLabel: String

    package init(id: UInt64, remoteAddress: String, localPort: Int, tls: TLSInfo?, listenerLabel: String) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.localPort = localPort
        self.tls = tls
        self.listenerLabel = listenerLabel
    }

    /// A placeholder for requests built in tests without a socket (label `development`).
    package static let inMemory = ConnectionInfo(
        id: 0, remoteAddress: "in-memory", localPort: 0, tls: nil, listenerLabel: "development")
}
