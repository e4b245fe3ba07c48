import Foundation

/// The one machine-readable line `serve` prints on standard output once every port is bound, e.g.
/// `{"event":"listening","host":"127.0.0.1","tls_port":2197,"h2c_port":null,"admin_port":2198,...}`.
/// Tests and the conformance runner start the server with port 0 and read the chosen ports from it.
public struct StartupAnnouncement: Codable, Sendable, Equatable {
    public var event = "listening"
    public var host: String
    public var tlsPort: Int?
    public var h2cPort: Int?
    public var productionPort: Int?
    public var adminPort: Int?
    public var adminHost: String?
    public var environment: String
    public var pid: Int32
    public var threads: Int
    public var dataDir: String?

    enum CodingKeys: String, CodingKey {
        case event, host, environment, pid, threads
        case tlsPort = "tls_port", h2cPort = "h2c_port", productionPort = "production_port", adminPort = "admin_port", adminHost = "admin_host"
        case dataDir = "data_dir"
    }

    /// Every key is written, absent ports as `null`, so readers can rely on every key being present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event, forKey: .event)
        try container.encode(host, forKey: .host)
        try container.encode(tlsPort, forKey: .tlsPort)
        try container.encode(h2cPort, forKey: .h2cPort)
        try container.encode(productionPort, forKey: .productionPort)
        try container.encode(adminPort, forKey: .adminPort)
        try container.encode(adminHost, forKey: .adminHost)
        try container.encode(environment, forKey: .environment)
        try container.encode(pid, forKey: .pid)
        try container.encode(threads, forKey: .threads)
        try container.encode(dataDir, forKey: .dataDir)
    }

    /// The line: keys sorted, slashes unescaped.
    public func line() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
