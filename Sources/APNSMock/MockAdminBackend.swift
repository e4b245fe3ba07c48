import APNSAdmin
import APNSCore
import APNSCrypto
import Foundation

/// What the admin API asks of the running mock beyond the delivery store: health, metrics, Live Activity state,
/// and run-time configuration of declared tokens, signing keys and scripted answers (fault injection).
///
/// Run-time configuration (`POST /api/config/{section}`, JSON body):
/// - `tokens`: a declared token or an array of them (same form as the configuration file) to declare or replace;
///   `{"remove": "<token>"}`; `{"clear": true}`.
/// - `keys`: `{"teamID", "keyID", "publicKeyPEM" | "p8PEM", "environment"?, "topics"?, "bundleIDs"?}` registers a
///   key (only the public key is kept); `{"remove": "<keyID>"}`; `{"teamID", "bundleIDs": [...]}` adds bundle IDs.
/// - `faults`: a scripted answer or an array of them (see `ScriptedAnswer`); `{"clear": true}`.
final class MockAdminBackend: AdminBackend {
    let tokens: DeviceTokenRegistry
    let keys: SigningKeyRegistry?
    let scripted: ScriptedAnswers
    let liveActivities: LiveActivityService?
    let metrics: Metrics
    let clock: any WallClock
    let started = Date()
    let summary: @Sendable () -> [String: Any]
    let storeHealth: StoreHealth

    init(
        tokens: DeviceTokenRegistry, keys: SigningKeyRegistry?, scripted: ScriptedAnswers,
        liveActivities: LiveActivityService?, metrics: Metrics, clock: any WallClock,
        storeHealth: StoreHealth = StoreHealth(), summary: @escaping @Sendable () -> [String: Any]
    ) {
        self.storeHealth = storeHealth
        self.clock = clock
        self.tokens = tokens
        self.keys = keys
        self.scripted = scripted
        self.liveActivities = liveActivities
        self.metrics = metrics
        self.summary = summary
    }

    func healthJSON() -> Data {
        var object = summary()
        object["uptimeSeconds"] = Int(Date().timeIntervalSince(started))
        object["declaredTokens"] = tokens.all().count
        object["scriptedAnswers"] = scripted.all.count
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    var degradedReason: String? { storeHealth.degradedReason }

    func activitiesJSON() -> Data {
        liveActivities?.activitiesJSON(now: clock.now()) ?? Data(#"{"activities":[]}"#.utf8)
    }

    func activityJSON(token: String) -> Data? {
        liveActivities?.activityJSON(token: token, now: clock.now())
    }

    func metricsText() -> String { metrics.prometheusText() }

    func config(section: String) -> AdminResponse {
        switch section {
        case "tokens": return encode(tokens.all())
        case "keys":
            return encode(KeysView(
                keys: keys?.keySummaries ?? [],
                bundleIDs: (keys?.bundleIDsByTeam ?? [:]).mapValues { $0.sorted() }))
        case "faults": return encode(scripted.all)
        default: return .error(404, "unknown configuration section \(section): use tokens, keys or faults")
        }
    }

    func updateConfig(section: String, body: Data) -> AdminResponse {
        do {
            switch section {
            case "tokens": return try updateTokens(body)
            case "keys": return try updateKeys(body)
            case "faults": return try updateFaults(body)
            default: return .error(404, "unknown configuration section \(section): use tokens, keys or faults")
            }
        } catch let error as DecodingError {
            return .error(400, "invalid \(section) body: \(MockConfiguration.describe(error))")
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
        if let command = try? JSONDecoder().decode(Command.self, from: body), command.remove != nil || command.clear == true {
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
        let request = try JSONDecoder().decode(KeyRequest.self, from: body)
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
        if let command = try? JSONDecoder().decode(Command.self, from: body), command.clear == true {
            scripted.removeAll()
            return config(section: "faults")
        }
        for script in try decodeOneOrMany(ScriptedAnswer.self, body) {
            guard (200...599).contains(script.status) else { return .error(400, "status must be 200...599") }
            scripted.add(script)
        }
        return config(section: "faults")
    }

    private func decodeOneOrMany<T: Decodable>(_ type: T.Type, _ body: Data) throws -> [T] {
        if let many = try? JSONDecoder().decode([T].self, from: body) { return many }
        return [try JSONDecoder().decode(T.self, from: body)]
    }

    private func encode(_ value: some Encodable) -> AdminResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .json(200, (try? encoder.encode(value)) ?? Data("null".utf8))
    }
}
