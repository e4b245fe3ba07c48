import APNSCore
import APNSCrypto
import APNSJSON
import HTTP2
import Foundation

/// What the admin API asks of the running mock beyond the delivery store: health, metrics, Live Activity state,
/// and run-time configuration of declared tokens, signing keys and scripted answers (fault injection).
///
/// Run-time configuration (`POST /api/config/{section}`, JSON body):
/// - `tokens`: a declared token or an array of them (same form as the configuration file) to declare or replace;
///   `{"remove": "<token>"}`; `{"clear": true}`.
/// - `keys`: `{"teamID", "keyID", "publicKeyPEM" | "p8PEM", "environment"?, "topics"?, "bundleIDs"?}` registers a
///   key (only the public key is kept); `{"remove": "<keyID>"}`; `{"teamID", "bundleIDs": [...]}` adds bundle IDs.
/// - `faults`: a fault spec or an array of them (`FaultSpec`; legacy scripted answers are specs too);
///   `{"clear": true}`. An array is applied only when every spec in it is understood (400 otherwise). GET shows
///   each spec with its `counters`.
/// - `serverFaults`: `{"acceptDelayMs"?, "handshakeStallMs"?, "maxConnections"?}` replaces the connection faults.
final class MockAdminBackend: AdminBackend {
    let tokens: DeviceTokenRegistry
    let keys: SigningKeyRegistry?
    let scripted: ScriptedAnswers
    let connectionFaults: ConnectionFaults
    let liveActivities: LiveActivityService?
    let metrics: Metrics
    let clock: any WallClock
    let started = Date()
    let summary: @Sendable () -> [String: String]
    let storeHealth: StoreHealth
    /// Broadcast channels and their subscribers (`GET /api/config/channels`; docs/broadcast.md).
    let channels: ChannelRegistry?

    init(
        tokens: DeviceTokenRegistry, keys: SigningKeyRegistry?, scripted: ScriptedAnswers,
        connectionFaults: ConnectionFaults = ConnectionFaults(), liveActivities: LiveActivityService?, metrics: Metrics,
        clock: any WallClock, storeHealth: StoreHealth = StoreHealth(), summary: @escaping @Sendable () -> [String: String],
        channels: ChannelRegistry? = nil
    ) {
        self.channels = channels
        self.storeHealth = storeHealth
        self.clock = clock
        self.tokens = tokens
        self.keys = keys
        self.scripted = scripted
        self.connectionFaults = connectionFaults
        self.liveActivities = liveActivities
        self.metrics = metrics
        self.summary = summary
    }

    func healthJSON() -> Data {
        AdminJSON.encode(ServerHealth(
            summary: summary(), uptimeSeconds: Int(Date().timeIntervalSince(started)),
            declaredTokens: tokens.all().count, scriptedAnswers: scripted.engine.specs.count))
    }

    /// `/api/health`'s `server` object: the configuration summary's keys beside the counters.
    struct ServerHealth: Encodable {
        var summary: [String: String]
        var uptimeSeconds: Int
        var declaredTokens: Int
        var scriptedAnswers: Int

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in summary { try container.encode(value, forKey: AnyCodingKey(key)) }
            try container.encode(uptimeSeconds, forKey: AnyCodingKey("uptimeSeconds"))
            try container.encode(declaredTokens, forKey: AnyCodingKey("declaredTokens"))
            try container.encode(scriptedAnswers, forKey: AnyCodingKey("scriptedAnswers"))
        }
    }

    var degradedReason: String? { storeHealth.degradedReason }

    func activitiesJSON(_ query: ActivityListQuery) -> Data {
        liveActivities?.activitiesJSON(query, now: clock.now())
            ?? AdminJSON.encode(ActivityList(activities: [], changeSequence: 0, total: 0))
    }

    func activityJSON(token: String) -> Data? {
        liveActivities?.activityJSON(token: token, now: clock.now())
    }

    func metricsText() -> String { metrics.prometheusText() + storeHealth.prometheusText }

    func config(section: String) -> AdminResponse {
        config(section: section, page: AdminPage())
    }

    func config(section: String, page: AdminPage) -> AdminResponse {
        switch section {
        case "tokens": return encode(tokens.all())
        case "keys":
            return encode(KeysView(
                keys: keys?.keySummaries ?? [],
                bundleIDs: (keys?.bundleIDsByTeam ?? [:]).mapValues { $0.sorted() }))
        case "faults": return encode(scripted.engine.statuses.map(FaultStatusView.init))
        case "serverFaults": return encode(connectionFaults.current)
        case "channels":
            let listed = channels?.channels(from: page.position, limit: page.limit) ?? ChannelRegistry.Page()
            return encode(ChannelsView(page: listed))
        default: return .error(404, "unknown configuration section \(section): use tokens, keys or faults")
        }
    }

    func updateConfig(section: String, body: Data) -> AdminResponse {
        do {
            switch section {
            case "tokens": return try updateTokens(body)
            case "keys": return try updateKeys(body)
            case "faults": return try updateFaults(body)
            case "serverFaults": return try updateServerFaults(body)
            default: return .error(404, "unknown configuration section \(section): use tokens, keys or faults")
            }
        } catch let error as DecodingError {
            return .error(400, "invalid \(section) body: \(MockConfiguration.describe(error))")
        } catch let error as FaultSpecError {
            return .error(400, "invalid \(section) body: \(error.description)")
        } catch {
            return .error(400, "invalid \(section) body: \(error)")
        }
    }

    // MARK: - Sections

    private struct KeysView: Encodable {
        var keys: [SigningKeySummary]
        var bundleIDs: [String: [String]]
    }

    private struct Command: Decodable {
        var remove: String?
        var clear: Bool?
    }

    private func updateTokens(_ body: Data) throws -> AdminResponse {
        if let command = try? JSONDecoding.decode(Command.self, from: body), command.remove != nil || command.clear == true {
            if command.clear == true { tokens.removeAll() }
            if let token = command.remove, !tokens.remove(token: token) { return .error(404, "token \(token) is not declared") }
            return config(section: "tokens")
        }
        for token in try decodeOneOrMany(DeclaredDeviceToken.self, body) {
            guard DeviceTokenFormat.isWellFormed(token.token) else {
                return .error(400, "token \(token.token) is not an even number of hex digits")
            }
            tokens.declare(token)
        }
        return config(section: "tokens")
    }

    private struct KeyRequest: Decodable {
        var teamID: String?
        var keyID: String?
        var publicKeyPEM: String?
        var p8PEM: String?
        var environment: KeyEnvironmentScope?
        var topics: [String]?
        var relatedKeyID: String?
        var bundleIDs: [String]?
        var remove: String?
    }

    private func updateKeys(_ body: Data) throws -> AdminResponse {
        guard let keys else { return .error(409, "provider-token authentication is off (allowUnauthenticated)") }
        let request = try JSONDecoding.decode(KeyRequest.self, from: body)
        if let keyID = request.remove {
            return keys.removeKey(id: keyID) ? config(section: "keys") : .error(404, "key \(keyID) is not registered")
        }
        guard let teamID = request.teamID else { return .error(400, "teamID is required") }
        for bundleID in request.bundleIDs ?? [] { try keys.addBundleID(bundleID, toTeam: teamID) }
        if let keyID = request.keyID {
            let verifier: ES256PublicKey
            if let pem = request.publicKeyPEM {
                verifier = try ES256PublicKey(pem: pem)
            } else if let pem = request.p8PEM {
                verifier = try ES256PublicKey(derivedFromPrivateKeyPEM: pem)
            } else {
                return .error(400, "a key needs publicKeyPEM or p8PEM")
            }
            keys.register(try SigningKey(
                teamID: teamID, keyID: keyID, environment: request.environment ?? .both,
                topics: request.topics.map(Set.init), relatedKeyID: request.relatedKeyID, verifier: verifier))
        }
        return config(section: "keys")
    }

    private func updateFaults(_ body: Data) throws -> AdminResponse {
        if let command = try? JSONDecoding.decode(Command.self, from: body), command.clear == true {
            scripted.removeAll()
            return config(section: "faults")
        }
        let specs: [FaultSpec]
        switch JSONValue.parse([UInt8](body)) {
        case .array(let items)?:
            specs = try items.enumerated().map { index, item in
                guard let object = item.objectValue else { throw FaultSpecError("[\(index)]: a fault spec must be a JSON object") }
                do { return try FaultSpec(json: object) } catch let error as FaultSpecError {
                    throw FaultSpecError("[\(index)]: \(error.description)")
                }
            }
        case let value? where value.isObject:
            specs = [try FaultSpec(json: value.objectValue ?? [:])]
        default:
            return .error(400, "invalid faults body: a fault spec (JSON object), an array of them, or {\"clear\": true}")
        }
        // All or nothing: every spec was understood before any is added.
        for spec in specs { scripted.add(spec) }
        return config(section: "faults")
    }

    private func updateServerFaults(_ body: Data) throws -> AdminResponse {
        connectionFaults.current = try JSONDecoding.decode(ConnectionFaultSettings.self, from: body)
        return config(section: "serverFaults")
    }

    /// A fault spec as `GET /api/config/faults` shows it: the spec's keys plus read-only `counters`.
    private struct FaultStatusView: Encodable {
        let status: FaultStatus
        init(_ status: FaultStatus) { self.status = status }
        func encode(to encoder: any Encoder) throws {
            let counters = JSONValue.object([
                JSONMember("fired", .number(String(status.fired))), JSONMember("matched", .number(String(status.matched))),
            ])
            let object = status.spec.json.merging(["counters": counters]) { $1 }
            try JSONValue.object(object.keys.sorted().map { JSONMember($0, object[$0]!) }).encode(to: encoder)
        }
    }

    private func decodeOneOrMany<T: Decodable>(_ type: T.Type, _ body: Data) throws -> [T] {
        if let many = try? JSONDecoding.decode([T].self, from: body) { return many }
        return [try JSONDecoding.decode(T.self, from: body)]
    }

    private func encode(_ value: some Encodable) -> AdminResponse {
        .json(200, encoding: value)
    }
}
