import APNSJSON
import APNSCore
import ActivitySourceParser
import APNSStore
import HTTP2
import Foundation

/// The whole mock, built from a configuration: push listeners (TLS, optional h2c and production port), the
/// rules, provider-token authentication, the simulated Live Activity device, the delivery store and the admin API.
package final class MockServer: Sendable {
    package let configuration: MockConfiguration
    let tokens: DeviceTokenRegistry
    let authentication: AuthenticationService?
    let scripted: ScriptedAnswers
    let connectionFaults: ConnectionFaults
    let store: any DeliveryStore
    let liveActivities: LiveActivityService
    /// What reading the `ActivityAttributes` sources found (types it could not resolve are reported, not guessed).
    package let activitySourceProblems: [String]
    package let activitySchemaNames: [String]
    let transport: HTTP2Server
    let metrics = Metrics()
    let storeHealth: StoreHealth
    /// Held while the server runs: a second server on the same data directory refuses to start.
    let dataDirectoryLock: DataDirectoryLock?
    /// What `recoverStore` did when the store failed its check at start-up (nil: it passed, or no recovery asked).
    package let storeRecovery: SQLiteStoreRecovery.Report?
    let admin: AdminServer?
    /// Broadcast channels, sends and subscriptions (docs/broadcast.md).
    let broadcast: BroadcastService
    private let listenerRoles: [ListenerRole]

    enum ListenerRole: Equatable { case tls, h2c, production, manage, productionManage }

    /// `recoverStore`: when the store file fails its check (`DeliveryStoreError.damaged`), move it aside and salvage
    /// its readable rows into a fresh one (`SQLiteStoreRecovery`) instead of throwing.
    package init(configuration: MockConfiguration, clock: any WallClock = SystemClock(), recoverStore: Bool = false) throws {
        try configuration.validate()
        self.configuration = configuration
        tokens = DeviceTokenRegistry(configuration.tokens)
        authentication = configuration.allowUnauthenticated == true ? nil : try AuthenticationService(configuration: configuration)
        scripted = ScriptedAnswers(specs: configuration.scriptedAnswers, tokens: tokens)
        connectionFaults = ConnectionFaults(configuration.faults)
        let retention = RetentionPolicy(
            maxCount: configuration.retention.maxDeliveries ?? RetentionPolicy().maxCount,
            maxAge: configuration.retention.maxAgeSeconds.map { .milliseconds(Int64($0 * 1000)) } ?? RetentionPolicy().maxAge)
        dataDirectoryLock = try configuration.dataDir.map(DataDirectoryLock.init(directory:))
        if let dataDir = configuration.dataDir {
            (store, storeRecovery) = try Self.openStore(
                directory: dataDir, retention: retention, clock: clock, recover: recoverStore)
        } else {
            store = InMemoryDeliveryStore(retention: retention, clock: clock)
            storeRecovery = nil
        }
        storeHealth = StoreHealth(store: store)

        let schemas = try Self.activitySchemas(configuration.liveActivities)
        activitySourceProblems = schemas.problems
        activitySchemaNames = schemas.schemas.map(\.attributesType)
        let settings = configuration.liveActivities
        liveActivities = LiveActivityService(
            device: LiveActivityDevice(configuration: settings.deviceConfiguration(schemas: schemas.schemas)),
            strict: settings.strict ?? false)

        let validator = PushValidator(configuration: try Self.ruleConfiguration(configuration), tokens: tokens)
        let pipeline = PushPipeline(
            validator: validator, device: liveActivities.device, strictDevice: liveActivities.strict)
        let recorder = DeliveryRecorder(store: store, metrics: metrics, health: storeHealth)
        broadcast = BroadcastService(
            settings: configuration.broadcast, device: liveActivities.device, recorder: recorder, clock: clock,
            dataDir: configuration.dataDir)
        let application = PushApplication(
            pipeline: pipeline, authentication: authentication, scripted: scripted,
            recorder: recorder, clock: clock, broadcast: broadcast)

        var listeners: [ListenerConfiguration] = []
        var roles: [ListenerRole] = []
        listeners.append(.init(host: configuration.host, port: configuration.port, useTLS: true, environment: configuration.environment))
        roles.append(.tls)
        if let h2cPort = configuration.h2cPort {
            listeners.append(.init(host: configuration.host, port: h2cPort, useTLS: false, environment: configuration.environment))
            roles.append(.h2c)
        }
        if let productionPort = configuration.productionPort {
            listeners.append(.init(host: configuration.host, port: productionPort, useTLS: true, environment: .production))
            roles.append(.production)
        }
        for (port, environment, role) in [
            (configuration.managePort, configuration.environment, ListenerRole.manage),
            (configuration.productionManagePort, APNsEnvironment.production, ListenerRole.productionManage),
        ] {
            guard let port else { continue }
            listeners.append(.init(
                host: configuration.host, port: port, useTLS: true,
                label: BroadcastService.managementLabelPrefix + environment.rawValue))
            roles.append(role)
        }
        listenerRoles = roles
        transport = try HTTP2Server(
            listeners: listeners,
            tls: TLSFiles(
                certificateChainPath: configuration.tls.certificate ?? DefaultCredentials.serverCertificate,
                privateKeyPath: configuration.tls.privateKey ?? DefaultCredentials.serverKey,
                clientCertificateAuthorityPath: configuration.tls.clientCertificateAuthority
                    ?? DefaultCredentials.certificateAuthority),
            settings: configuration.limits.transportSettings,
            application: application, threads: configuration.threads ?? ProcessInfo.processInfo.activeProcessorCount,
            clock: clock, faults: connectionFaults)

        if let adminPort = configuration.admin.port {
            let summary: [String: String] = [
                "environment": configuration.environment.rawValue, "host": configuration.host,
                "dataDir": configuration.dataDir ?? "in-memory",
            ]
            let backend = MockAdminBackend(
                tokens: tokens, keys: authentication?.registry, scripted: scripted, connectionFaults: connectionFaults,
                liveActivities: liveActivities,
                metrics: metrics, clock: clock, storeHealth: storeHealth, summary: { summary },
                channels: broadcast.channels)
            admin = try AdminServer(
                host: configuration.admin.host, port: adminPort, bearerToken: configuration.admin.token, store: store,
                backend: backend)
        } else {
            admin = nil
        }
    }

    /// What the store found when it opened that it lost, moved or mended (dropped WAL frames, a file of another
    /// schema version moved aside): `serve` prints each on standard error.
    package var storeNotes: [String] { store.problems.openNotes }

    /// The store in `directory`; with `recover`, one that fails its check is salvaged first (`SQLiteStoreRecovery`).
    private static func openStore(
        directory: String, retention: RetentionPolicy, clock: any WallClock, recover: Bool
    ) throws(DeliveryStoreError) -> (SQLiteDeliveryStore, SQLiteStoreRecovery.Report?) {
        do {
            return (try SQLiteDeliveryStore(directory: directory, retention: retention, clock: clock), nil)
        } catch {
            guard recover, case .damaged(let path, _) = error else { throw error }
            let recovery = try SQLiteStoreRecovery.recover(path: path, retention: retention)
            return (try SQLiteDeliveryStore(directory: directory, retention: retention, clock: clock), recovery)
        }
    }

    /// Binds every port and starts serving; returns what the start-up line announces.
    package func start() throws -> StartupAnnouncement {
        restoreLiveActivities()
        try admin?.start()
        let ports = try transport.start()
        func port(_ role: ListenerRole) -> Int? { listenerRoles.firstIndex(of: role).map { ports[$0] } }
        return StartupAnnouncement(
            host: configuration.host, tlsPort: port(.tls), h2cPort: port(.h2c), productionPort: port(.production), adminPort: admin?.port,
            adminHost: admin.map { _ in configuration.admin.host }, environment: configuration.environment.rawValue, pid: getpid(),
            threads: configuration.threads ?? ProcessInfo.processInfo.activeProcessorCount,
            dataDir: configuration.dataDir, managePort: port(.manage), productionManagePort: port(.productionManage),
            storeProblem: storeHealth.degradedReason)
    }

    /// Graceful shutdown: GOAWAY everywhere, in-flight streams finish, then the store is flushed and closed.
    package func shutdown(gracePeriod: Double = 10) {
        transport.shutdown(gracePeriod: gracePeriod)
        admin?.stop()
        saveLiveActivities()
        broadcast.save()
        store.close()
    }

    /// Schemas from the app's Swift sources (`--activity-source`) and from JSON schema files (`--activity-schema`:
    /// one schema object or an array of them; docs/live-activities.md).
    static func activitySchemas(_ settings: MockConfiguration.LiveActivitySettings) throws -> (schemas: [ActivitySchema], problems: [String]) {
        var schemas: [ActivitySchema] = settings.schemas
        var problems: [String] = []
        if !settings.sources.isEmpty {
            let parsed = try ActivitySourceParser.parse(paths: settings.sources)
            schemas += parsed.schemas
            problems += parsed.problems
        }
        for path in settings.schemaFiles {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ConfigurationError.invalid(path: path, detail: "cannot read the Live Activity schema file: \(error.localizedDescription)")
            }
            do {
                if let many = try? JSONDecoding.decode([ActivitySchema].self, from: data) {
                    schemas += many
                } else {
                    schemas.append(try JSONDecoding.decode(ActivitySchema.self, from: data))
                }
            } catch let error as DecodingError {
                throw ConfigurationError.invalid(path: path, detail: MockConfiguration.describe(error))
            }
        }
        return (schemas, problems)
    }

    static func ruleConfiguration(_ configuration: MockConfiguration) throws -> RuleConfiguration {
        var rules = RuleConfiguration()
        let settings = configuration.rules
        if settings.strictAll == true {
            rules.strict = WarningCodeCatalogue.requestCodes.map { StrictRejection(code: $0) }
        }
        for code in settings.strict ?? [] {
            guard WarningCodeCatalogue.contains(code) else {
                throw ConfigurationError.badFlag(
                    "rules.strict: unknown warning code \"\(code)\"\(WarningCodeCatalogue.suggestion(for: code)); "
                        + "the codes are listed in docs/rules.md, docs/authentication.md and docs/live-activities.md")
            }
            if rules.strictRejection(for: code) == nil { rules.strict.append(StrictRejection(code: code)) }
        }
        switch settings.nonJSONBody {
        case nil, "reject": break
        case "warn": rules.nonJSONBody = .acceptWithWarning
        case let other?: throw ConfigurationError.badFlag("rules.nonJSONBody must be reject or warn, got \(other)")
        }
        switch settings.undeclaredTokens {
        case nil, "reject": break
        case "warn": rules.undeclaredTokens = .acceptWithWarning
        case let other?: throw ConfigurationError.badFlag("rules.undeclaredTokens must be reject or warn, got \(other)")
        }
        switch settings.tokenOnCertificateConnection {
        case nil, "ignore": break
        case "verify": rules.tokenOnCertificateConnection = .verify
        case let other?:
            throw ConfigurationError.badFlag("rules.tokenOnCertificateConnection must be ignore or verify, got \(other)")
        }
        return rules
    }
}
