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

    public func line() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = (try? encoder.encode(self)) ?? Data()
        // Keep `null` for absent ports: readers can rely on every key being present.
        if var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] {
            for key in ["tls_port", "h2c_port", "production_port", "admin_port", "admin_host", "data_dir"] where object[key] == nil {
                object[key] = NSNull()
            }
            data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? data
        }
        return String(decoding: data, as: UTF8.self)
    }
}
