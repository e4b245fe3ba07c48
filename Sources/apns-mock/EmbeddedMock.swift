import APNSConformance
import APNSJSON
import APNSCore
import APNSMock
import APNSStore
import Foundation

/// A mock started inside `apns-mock check` / `conformance sender`: free ports, TLS and the admin API, deliveries in
/// memory unless `--data-dir` is given; hands the sender its address and credentials in `APNS_MOCK_*` variables.
final class EmbeddedMock {
    struct StartError: Error, CustomStringConvertible { let description: String }

    let server: MockServer
    let announcement: StartupAnnouncement
    let admin: AdminHTTP
    let environment: [String: String]

    init(options: ServeOptions) throws {
        var configuration: MockConfiguration
        do {
            configuration = try options.config.map(MockConfiguration.load(path:)) ?? MockConfiguration()
            try options.apply(to: &configuration)
        } catch {
            throw StartError(description: "\(error)")
        }
        if options.port == nil { configuration.port = 0 }
        if options.adminPort == nil { configuration.admin.port = 0 }
        if options.noAdmin { throw StartError(description: "--no-admin: the runner reads deliveries through the admin API") }
        if options.dataDirectory == nil { configuration.dataDir = nil }
        if configuration.admin.token != nil { throw StartError(description: "--admin-token is not supported by the runner") }
        do {
            server = try MockServer(configuration: configuration)
            announcement = try server.start()
        } catch {
            throw StartError(description: "cannot start the mock: \(error)")
        }
        guard let tlsPort = announcement.tlsPort, let adminPort = announcement.adminPort else {
            server.shutdown(gracePeriod: 0)
            throw StartError(description: "the mock did not bind its ports")
        }
        admin = AdminHTTP(baseURL: "http://127.0.0.1:\(adminPort)")
        let credentials = Self.credentials(configuration)
        environment = [
            "APNS_MOCK_URL": "https://localhost:\(tlsPort)",
            "APNS_MOCK_HOST": "localhost",
            "APNS_MOCK_PORT": String(tlsPort),
            "APNS_MOCK_CA_FILE": Self.absolute(DefaultCredentials.certificateAuthority),
            "APNS_MOCK_TEAM_ID": credentials.team,
            "APNS_MOCK_KEY_ID": credentials.key,
            "APNS_MOCK_KEY_FILE": Self.absolute(credentials.p8),
            "APNS_MOCK_TOPIC": credentials.bundle,
            "APNS_MOCK_ADMIN_URL": "http://127.0.0.1:\(adminPort)",
        ]
    }

    /// The first configured team with a private key, else the sample credentials of `certs/`.
    static func credentials(_ configuration: MockConfiguration) -> (team: String, key: String, p8: String, bundle: String) {
        for team in configuration.teams {
            if let key = team.keys?.first(where: { $0.p8 != nil }), let p8 = key.p8 {
                return (team.teamID, key.keyID, p8, team.bundleIDs?.first ?? DefaultCredentials.bundleID)
            }
        }
        return (DefaultCredentials.teamID, DefaultCredentials.keyID, DefaultCredentials.signingKey, DefaultCredentials.bundleID)
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
            .standardizedFileURL.path
    }

    /// Installs each fault through `POST /api/config/faults` and checks the engine kept what makes it mean what
    /// it says (an engine without `probability` would fault every request).
    func install(_ faults: [InjectSpec]) throws {
        for fault in faults {
            let (status, body) = try admin.request("POST", "/api/config/faults", body: Data(fault.faultJSON.utf8))
            guard status == 200 else {
                throw StartError(description: "fault \(fault.text): the mock refused \(fault.faultJSON): \(String(decoding: body, as: UTF8.self))")
            }
        }
        let (_, installed) = try admin.request("GET", "/api/config/faults")
        let text = String(decoding: installed, as: UTF8.self)
        for fault in faults {
            for key in fault.requiredKeys where !text.contains("\"\(key)\"") {
                throw StartError(description: "fault \(fault.text): this build's fault engine does not support \"\(key)\"")
            }
        }
    }

    /// The id of the last delivery recorded so far.
    func latestID() throws -> Int64 {
        let (_, body) = try admin.request("GET", "/api/deliveries?limit=1")
        return try JSONParser.parse(Array(body))["latestId"]?.int64Value ?? 0
    }

    func requests(after id: Int64) throws -> [ObservedRequest] {
        try admin.deliveries(after: id).flatMap { try ObservedRequest.parseList($0) }
    }

    func shutdown() { server.shutdown(gracePeriod: 1) }
}

/// Live progress on standard error: one line per delivery as it is recorded (the first 40, then every 100th).
final class ProgressPrinter: @unchecked Sendable {
    private let admin: AdminHTTP
    private let stopped = Locked(false)
    private let finished = DispatchSemaphore(value: 0)
    private var lastID: Int64

    init(admin: AdminHTTP, after id: Int64) {
        self.admin = admin
        lastID = id
    }

    func start() {
        Thread.detachNewThread { [self] in
            var shown = 0
            while !stopped.withLock({ $0 }) {
                guard let (status, body) = try? admin.request("GET", "/api/deliveries/wait?after_id=\(lastID)&timeout_ms=300", timeout: 10) else { break }
                guard status == 200, let record = try? JSONDecoding.decode(DeliveryRecord.self, from: body) else { continue }
                let request = ObservedRequest(record)
                lastID = request.id
                shown += 1
                if shown <= 40 || shown % 100 == 0 {
                    var line = "  #\(request.id) \(request.status)\(request.reason.map { " \($0)" } ?? "") \(request.pushType ?? "-") \(request.deviceToken?.prefix(8) ?? "-")… conn \(request.connectionID)"
                    if let outcome = request.liveActivityOutcome { line += " device:\(outcome)" }
                    if request.isInjected { line += " (injected)" }
                    FileHandle.standardError.write(Data((line + "\n").utf8))
                } else if shown == 41 {
                    FileHandle.standardError.write(Data("  … (every 100th request from now on)\n".utf8))
                }
            }
            finished.signal()
        }
    }

    func stop() {
        stopped.withLock { $0 = true }
        _ = finished.wait(timeout: .now() + 5)
    }
}
