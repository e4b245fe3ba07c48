import APNSCore
import APNSMock
import ArgumentParser

/// The options of `apns-mock serve` that say what to serve: listeners, admin API, TLS, store, keys, topics and
/// Live Activity schemas. `apns-mock check` takes the same ones (one definition, one meaning).
struct ServeOptions: ParsableArguments {
    @Option(help: "Address for the push listeners.")
    var host: String?

    @Option(help: "TLS HTTP/2 port (default 2197; 0 picks a free port).")
    var port: Int?

    @Option(name: .customLong("h2c-port"), help: "Cleartext prior-knowledge HTTP/2 port (default: none).")
    var h2cPort: Int?

    @Option(name: .customLong("production-port"), help: "Extra TLS port that stands for the production environment.")
    var productionPort: Int?

    @Option(name: .customLong("admin-port"), help: "Admin API and web inspector port (default 2198; 0 picks a free port).")
    var adminPort: Int?

    @Option(name: .customLong("admin-host"), help: "Address of the admin API (default 127.0.0.1: loopback only).")
    var adminHost: String?

    @Option(name: .customLong("admin-token"), help: "Require 'authorization: Bearer <token>' on the admin API.")
    var adminToken: String?

    @Flag(name: .customLong("no-admin"), help: "Do not serve the admin API.")
    var noAdmin = false

    @Option(name: .customLong("tls-cert"), help: "Server certificate chain (PEM).")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "Server private key (PEM).")
    var tlsKey: String?

    @Option(help: "JSON configuration file (see docs/configuration.md).")
    var config: String?

    @Option(name: .customLong("data-dir"), help: "Directory of the delivery store (default: .apns-mock in the current directory).")
    var dataDirectory: String?

    @Flag(name: .customLong("in-memory"), help: "Keep deliveries in memory only (no store file).")
    var inMemory = false

    @Option(help: "Environment of the main listeners: development or production.")
    var environment: APNsEnvironment?

    @Option(name: .customLong("key"), help: ArgumentHelp("Signing key TEAMID:KEYID:path/to/AuthKey.p8 (repeatable).", valueName: "team:key:path"))
    var keys: [String] = []

    @Option(name: .customLong("topic"), help: ArgumentHelp("A bundle ID of a team, TEAMID:BUNDLEID (repeatable).", valueName: "team:bundle"))
    var topics: [String] = []

    @Option(name: .customLong("activity-source"), help: "Swift file or folder declaring ActivityAttributes types (repeatable).")
    var activitySources: [String] = []

    @Option(name: .customLong("activity-schema"), help: "JSON Live Activity schema file (repeatable).")
    var activitySchemas: [String] = []

    @Option(help: "Event-loop threads (default: one per core).")
    var threads: Int?

    @Option(name: .customLong("handshake-timeout"), help: "Seconds to finish the TLS handshake and HTTP/2 preface (default 10).")
    var handshakeTimeout: Double?

    @Option(name: .customLong("idle-timeout"), help: "Seconds before an idle connection gets GOAWAY and is closed (default 7200).")
    var idleTimeout: Double?

    @Option(name: .customLong("stream-timeout"), help: "Seconds for a request to finish before its stream is reset (default 30).")
    var streamTimeout: Double?

    @Option(name: .customLong("connection-body-buffer"), help: "Request-body bytes buffered per connection (default 8388608).")
    var connectionBodyBuffer: Int?

    @Option(name: .customLong("total-body-buffer"), help: "Request-body bytes buffered across the server (default 268435456).")
    var totalBodyBuffer: Int?

    /// Flags override the configuration file.
    func apply(to configuration: inout MockConfiguration) throws {
        if let host { configuration.host = host }
        if let port { configuration.port = port }
        if let h2cPort { configuration.h2cPort = h2cPort }
        if let productionPort { configuration.productionPort = productionPort }
        if let adminPort { configuration.admin.port = adminPort }
        if noAdmin { configuration.admin.port = nil }
        if let adminHost { configuration.admin.host = adminHost }
        if let adminToken { configuration.admin.token = adminToken }
        if let tlsCertificate { configuration.tls.certificate = tlsCertificate }
        if let tlsKey { configuration.tls.privateKey = tlsKey }
        if let dataDirectory { configuration.dataDir = dataDirectory }
        if inMemory { configuration.dataDir = nil } else if configuration.dataDir == nil { configuration.dataDir = ".apns-mock" }
        if let environment { configuration.environment = environment }
        if let threads { configuration.threads = threads }
        if let handshakeTimeout { configuration.limits.handshakeTimeoutSeconds = handshakeTimeout }
        if let idleTimeout { configuration.limits.idleTimeoutSeconds = idleTimeout }
        if let streamTimeout { configuration.limits.streamTimeoutSeconds = streamTimeout }
        if let connectionBodyBuffer { configuration.limits.connectionBodyBufferBytes = connectionBodyBuffer }
        if let totalBodyBuffer { configuration.limits.totalBodyBufferBytes = totalBodyBuffer }
        configuration.liveActivities.sources += activitySources
        configuration.liveActivities.schemaFiles += activitySchemas
        do {
            var registry = KeyRegistryConfiguration(teams: configuration.teams)
            registry.add(keyFlags: try keys.map(KeyFlag.init(parsing:)), topicFlags: try topics.map(TopicFlag.init(parsing:)))
            configuration.teams = registry.teams
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
