/// Which APNs environment a listener or a push stands for. Source: A-SEND (hosts table); tokens, keys and
/// `apns-unique-id` depend on it (A-RESP, A-TOKEN).
public enum APNsEnvironment: String, Sendable, Codable, CaseIterable, Hashable {
    case development
    case production
}

extension ConnectionInfo {
    /// The environment of the listener that accepted the connection: its label read as an `APNsEnvironment`
    /// raw value (`development`, `production`); any other label counts as development, like `inMemory`.
    public var environment: APNsEnvironment {
        // Compared with the one other spelling in place: the synthesized raw-value initializer went through the
        // runtime's string switch (~170 instructions, read for every push).
        listenerLabel == "production" ? .production : .development
    }

    /// A connection accepted by the listener that stands for `environment`.
    public init(id: UInt64, remoteAddress: String, localPort: Int, tls: TLSInfo?, environment: APNsEnvironment) {
        self.init(id: id, remoteAddress: remoteAddress, localPort: localPort, tls: tls,
                  listenerLabel: environment.rawValue)
    }
}
