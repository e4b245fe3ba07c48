import APNSCore
import APNSJSON
import HTTP2
import Foundation

/// Everything `apns-mock serve` can be told, as read from `--config FILE` (JSON) and then overridden by flags.
/// Every key is optional; the embedded default serves TLS HTTP/2 on 127.0.0.1:2197 with the TEST-ONLY
/// credentials of `certs/` and the sample team TEAM123456 / key ABC123DEFG / bundle com.example.app.
/// The format is documented in `docs/configuration.md`.
package struct MockConfiguration: Codable, Sendable, Equatable {
    /// The environment of the main listeners (`development` answers with `apns-unique-id`; A-RESP).
    package var environment: APNsEnvironment = .development
    package var host: String = "127.0.0.1"
    /// TLS port; 0 picks a free port.
    package var port: Int = 2197
    /// Cleartext prior-knowledge HTTP/2 port (nil: none).
    package var h2cPort: Int?
    /// An extra TLS listener that stands for the production environment (nil: none).
    package var productionPort: Int?
    /// TLS channel-management listener of the main environment (Apple: 2195 development, 2196 production; A-CHAN);
    /// nil: none. 0 picks a free port.
    package var managePort: Int?
    /// A channel-management listener that stands for the production environment (nil: none).
    package var productionManagePort: Int?
    /// Broadcast push: apps without the capability, channel limit (docs/broadcast.md).
    package var broadcast = BroadcastSettings()
    package var admin = AdminSettings()
    package var tls = TLSSettings()
    /// Where the delivery store lives; nil keeps deliveries in memory only.
    package var dataDir: String?
    /// Event-loop threads; nil means one per core.
    package var threads: Int?
    /// Teams, their bundle IDs and signing keys (provider-token authentication; docs/authentication.md).
    package var teams: [KeyRegistryConfiguration.Team] = []
    /// Register the sample team/key/bundle of `certs/` (default: only when no team is configured).
    package var sampleCredentials: Bool?
    /// Token lifetime, future-`iat` tolerance, token-update window, `BadEnvironmentKey(Id)InToken` spelling.
    package var authentication = ProviderTokenPolicy()
    /// Accept pushes without a provider token, as on a certificate-authenticated connection (default false).
    package var allowUnauthenticated: Bool?
    /// Declared device tokens; none declared means every well-formed token is accepted (docs/rules.md).
    package var tokens: [DeclaredDeviceToken] = []
    package var rules = RuleSettings()
    package var liveActivities = LiveActivitySettings()
    package var retention = RetentionSettings()
    /// Connection timeouts and request-memory caps (`MockConfiguration+Limits.swift`).
    package var limits = LimitSettings()
    /// Faults active from start-up (fault injection; `FaultSpec`, docs/configuration.md). A spec that is not
    /// understood is a start-up error.
    package var scriptedAnswers: [FaultSpec] = []
    /// Connection-level faults: accept delay, TLS handshake stall, maximum number of connections.
    package var faults = ConnectionFaultSettings()

    package init() {}

    package struct AdminSettings: Codable, Sendable, Equatable {
        package var host: String = "127.0.0.1"
        /// 0 picks a free port; nil disables the admin API.
        package var port: Int? = 2198
        /// When set, admin requests need `authorization: Bearer <token>`.
        package var token: String?
        package init() {}
    }

    package struct TLSSettings: Codable, Sendable, Equatable {
        package var certificate: String?
        package var privateKey: String?
        /// PEM CA certificates that client (provider) certificates must chain to; nil: `certs/dev-ca.pem`, the CA
        /// `apns-mock certgen` issues from (docs/authentication.md, "Certificate-based authentication").
        package var clientCertificateAuthority: String?
        package init() {}
    }

    package struct RuleSettings: Codable, Sendable, Equatable {
        /// Warning codes that strict mode turns into rejections (answers labelled as the mock's, not APNs').
        package var strict: [String]?
        /// Turn every warning code into a rejection.
        package var strictAll: Bool?
        /// Non-JSON body: `reject` (400 BadRequestPayload, default) or `warn`.
        package var nonJSONBody: String?
        /// Well-formed tokens the registry does not declare (when it declares some): `reject` (default) or `warn`.
        package var undeclaredTokens: String?
        /// A bearer token on a certificate connection: `ignore` (default, A-SEND) or `verify`.
        package var tokenOnCertificateConnection: String?
        package init() {}
    }

    package struct LiveActivitySettings: Codable, Sendable, Equatable {
        /// Swift files or folders declaring `ActivityAttributes` types.
        package var sources: [String] = []
        /// JSON schema files, for teams without Swift sources at hand.
        package var schemaFiles: [String] = []
        /// Schemas declared inline (docs/live-activities.md, "Declared in the config file").
        package var schemas: [ActivitySchema] = []
        /// Priority-10 pushes per hour before the device throttles.
        package var budgetPerHour: Int?
        /// `NSSupportsLiveActivitiesFrequentUpdates`.
        package var frequentUpdates: Bool?
        /// Issue a per-activity update token when a push-to-start creates an activity.
        package var issueUpdateTokens: Bool?
        /// Timeline entries kept per token (default 1,000). The device keeps every token it has seen, so memory grows
        /// with tokens × this: a load test to 100,000 tokens may want a few (docs/live-activities.md).
        package var timelineLimit: Int?
        /// Timeline entries kept across every token (default 100,000): the oldest go first.
        package var timelineTotalLimit: Int?
        /// Tokens the device remembers (default 200,000): a push to a new token beyond it forgets the oldest tenth.
        package var tokenLimit: Int?
        /// Answer device-level drops with HTTP 400 and a mock-specific reason (NOT APNs behaviour).
        package var strict: Bool?
        package init() {}
    }

    package struct RetentionSettings: Codable, Sendable, Equatable {
        package var maxDeliveries: Int?
        package var maxAgeSeconds: Double?
        package init() {}
    }

    /// Reads a configuration file. Keys it leaves out keep their defaults: the file is merged over the encoded
    /// default configuration (objects key by key, arrays replaced whole) before decoding.
    package static func load(path: String) throws -> MockConfiguration {
        let data = try ConfigurationFileCheck.read(path: path)
        try ConfigurationFileCheck.check(data, path: path)
        return try decode(data, source: path)
    }

    package static func decode(_ data: Data, source: String = "configuration") throws -> MockConfiguration {
        let given: JSONValue
        do {
            given = try JSONParser.parse(Array(data))
        } catch {
            throw ConfigurationError.invalid(path: source, detail: "not valid JSON: \(error.description)")
        }
        guard given.isObject else {
            throw ConfigurationError.invalid(path: source, detail: "the top level must be a JSON object")
        }
        do {
            let defaults = try JSONParser.parse(Array(JSONEncoder().encode(MockConfiguration())))
            var writer = JSONWriter()
            writer.value(merge(defaults, given))
            return try JSONDecoding.decode(MockConfiguration.self, from: Data(writer.bytes))
        } catch let error as DecodingError {
            throw ConfigurationError.invalid(path: source, detail: describe(error))
        }
    }

    /// `override` over `base`: objects key by key (recursively), anything else replaced whole.
    private static func merge(_ base: JSONValue, _ override: JSONValue) -> JSONValue {
        guard case .object(var result) = base, case .object(let overrides) = override else { return override }
        for member in overrides {
            if let index = result.firstIndex(where: { $0.key == member.key }) {
                result[index].value = merge(result[index].value, member.value)
            } else {
                result.append(member)
            }
        }
        return .object(result)
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
             .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

package enum ConfigurationError: Error, CustomStringConvertible {
    case invalid(path: String, detail: String)
    case badFlag(String)

    package var description: String {
        switch self {
        case .invalid(let path, let detail): "configuration \(path): \(detail)"
        case .badFlag(let message): message
        }
    }
}
