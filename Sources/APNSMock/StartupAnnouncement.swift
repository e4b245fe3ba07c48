import Foundation

/// The one machine-readable line `serve` prints on standard output once every port is bound, e.g.
/// `{"event":"listening","host":"127.0.0.1","tls_port":2197,"h2c_port":null,"admin_port":2198,...}`.
/// Tests and the conformance runner start the server with port 0 and read the chosen ports from it.
package struct StartupAnnouncement: Codable, Sendable, Equatable {
    package var event = "listening"
    package var host: String
    package var tlsPort: Int?
    package var h2cPort: Int?
    package var productionPort: Int?
    package var adminPort: Int?
    package var adminHost: String?
    package var environment: String
    package var pid: Int32
    package var threads: Int
    package var dataDir: String?
    /// Channel-management listeners (broadcast push); written only when configured.
    package var managePort: Int?
    package var productionManagePort: Int?
    /// Why the delivery store is degraded at start-up (`store_status` is then `degraded`); written only then.
    package var storeProblem: String?

    enum CodingKeys: String, CodingKey {
        case event, host, environment, pid, threads
        case tlsPort = "tls_port", h2cPort = "h2c_port", productionPort = "production_port", adminPort = "admin_port", adminHost = "admin_host"
        case dataDir = "data_dir"
        case managePort = "manage_port", productionManagePort = "production_manage_port"
        case storeStatus = "store_status", storeProblem = "store_problem"
    }

    package init(
        host: String, tlsPort: Int?, h2cPort: Int?, productionPort: Int?, adminPort: Int?, adminHost: String?,
        environment: String, pid: Int32, threads: Int, dataDir: String?, managePort: Int? = nil,
        productionManagePort: Int? = nil, storeProblem: String? = nil
    ) {
        self.host = host
        self.tlsPort = tlsPort
        self.h2cPort = h2cPort
        self.productionPort = productionPort
        self.adminPort = adminPort
        self.adminHost = adminHost
        self.environment = environment
        self.pid = pid
        self.threads = threads
        self.dataDir = dataDir
        self.managePort = managePort
        self.productionManagePort = productionManagePort
        self.storeProblem = storeProblem
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            host: try container.decode(String.self, forKey: .host),
            tlsPort: try container.decodeIfPresent(Int.self, forKey: .tlsPort),
            h2cPort: try container.decodeIfPresent(Int.self, forKey: .h2cPort),
            productionPort: try container.decodeIfPresent(Int.self, forKey: .productionPort),
            adminPort: try container.decodeIfPresent(Int.self, forKey: .adminPort),
            adminHost: try container.decodeIfPresent(String.self, forKey: .adminHost),
            environment: try container.decode(String.self, forKey: .environment),
            pid: try container.decode(Int32.self, forKey: .pid), threads: try container.decode(Int.self, forKey: .threads),
            dataDir: try container.decodeIfPresent(String.self, forKey: .dataDir),
            managePort: try container.decodeIfPresent(Int.self, forKey: .managePort),
            productionManagePort: try container.decodeIfPresent(Int.self, forKey: .productionManagePort),
            storeProblem: try container.decodeIfPresent(String.self, forKey: .storeProblem))
    }

    /// Every key is written, absent ports as `null`, so readers can rely on every key being present.
    package func encode(to encoder: any Encoder) throws {
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
        // Only when configured, so the line of a server without them keeps its exact form.
        try container.encodeIfPresent(managePort, forKey: .managePort)
        try container.encodeIfPresent(productionManagePort, forKey: .productionManagePort)
        if let storeProblem {
            try container.encode("degraded", forKey: .storeStatus)
            try container.encode(storeProblem, forKey: .storeProblem)
        }
    }

    /// The line: keys sorted, slashes unescaped.
    package func line() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}
