import APNSCore
import APNSJSON
import Foundation

/// `Conformance/cases/device-push.json`, decoded. Format: Conformance/README.md.
public struct ConformanceTable: Decodable, Sendable {
    public var schema: Int
    public var now: Int64
    public var registry: [DeclaredDeviceToken]
    public var cases: [ConformanceCase]

    /// The repository root, found from this file's path (Tests/CoreTestSupport/…).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func load(_ name: String = "device-push.json") throws -> ConformanceTable {
        let url = repositoryRoot.appendingPathComponent("Conformance/cases/\(name)")
        return try JSONDecoder().decode(ConformanceTable.self, from: Data(contentsOf: url))
    }

    public var nowTimestamp: Timestamp { Timestamp(nanosecondsSinceEpoch: now * 1_000_000_000) }
}

public struct ConformanceCase: Decodable, Sendable, CustomStringConvertible {
    public struct Request: Decodable, Sendable {
        public var method: String
        public var path: String
        public var headers: [[String]]
        public var body: String?
        public var bodyBase64: String?
        public var bodySize: Int?
    }

    public struct Configuration: Decodable, Sendable {
        public var strict: [String]?
        public var nonJSONBody: String?
        public var undeclaredTokens: String?
        /// Fault specs, exactly as under `scriptedAnswers` in the server's config file.
        public var scriptedAnswers: [JSONValue]?
        /// The server config file's `liveActivities` block (schemas, device-strict mode, …).
        public var liveActivities: JSONValue?
    }

    public struct Expectation: Decodable, Sendable {
        public var status: Int
        public var reason: String?
        /// The rules' warning codes (`jwt-`, `auth-` and the device's `la-` codes are not listed here).
        public var warnings: [String]
        public var timestamp: Int64?
        public var strict: Bool?
        /// The simulated device's `la-` warning codes (any order); checked when given.
        public var deviceWarnings: [String]?
        /// What the simulated device did (`LiveActivityOutcome` raw value), or `"none"` when the push never
        /// reached it; checked when given.
        public var liveActivity: String?
    }

    public var id: String
    public var title: String
    public var source: String
    public var request: Request
    /// Pushes sent first, on the same connection, whose answers the case does not check.
    public var before: [Request]?
    public var environment: APNsEnvironment?
    /// `valid` (default), `none` or `rejected:<Reason>`.
    public var auth: String?
    /// `empty` (default) or `declared`.
    public var registry: String?
    public var configuration: Configuration?
    public var expect: Expectation

    public var description: String { "\(id): \(title)" }

    /// Codes other modules add on top of the rules' own warnings.
    public static let otherModulesWarningPrefixes = ["jwt-", "auth-", "la-"]

    /// The body bytes: `body` as UTF-8, `bodyBase64` decoded, or a generated JSON object of exactly `bodySize` bytes.
    public static func bodyBytes(_ request: Request) -> [UInt8] {
        if let size = request.bodySize {
            let prefix = #"{"aps":{},"p":""#
            let suffix = #""}"#
            return Array((prefix + String(repeating: "a", count: size - prefix.count - suffix.count) + suffix).utf8)
        }
        if let base64 = request.bodyBase64 {
            return Array(Data(base64Encoded: base64) ?? Data())
        }
        return Array((request.body ?? "").utf8)
    }

    public func httpRequest(_ request: Request? = nil, streamID: Int32 = 1) -> HTTPRequest {
        let request = request ?? self.request
        return HTTPRequest(
            method: request.method, path: request.path, authority: "api.sandbox.push.apple.com",
            headers: request.headers.map { HeaderField($0[0], $0[1]) }, body: Self.bodyBytes(request),
            streamID: streamID,
            connection: ConnectionInfo(
                id: 1, remoteAddress: "in-memory", localPort: 0, tls: ConformanceCertificates.tls(forAuth: auth),
                environment: environment ?? .development))
    }

    public func ruleConfiguration() -> RuleConfiguration {
        var configuration = RuleConfiguration()
        configuration.strict = (self.configuration?.strict ?? []).map { StrictRejection(code: $0) }
        if self.configuration?.nonJSONBody == "acceptWithWarning" {
            configuration.nonJSONBody = .acceptWithWarning
        }
        if self.configuration?.undeclaredTokens == "acceptWithWarning" {
            configuration.undeclaredTokens = .acceptWithWarning
        }
        return configuration
    }
}
