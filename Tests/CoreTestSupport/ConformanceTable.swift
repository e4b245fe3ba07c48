import APNSCore
import APNSJSON
import Foundation

/// `Conformance/cases/device-push.json`, decoded. Format: Conformance/README.md.
package struct ConformanceTable: Decodable, Sendable {
    package var schema: Int
    package var now: Int64
    package var registry: [DeclaredDeviceToken]
    package var cases: [ConformanceCase]

    /// The repository root, found from this file's path (Tests/CoreTestSupport/…).
    package static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static func load(_ name: String = "device-push.json") throws -> ConformanceTable {
        let url = repositoryRoot.appendingPathComponent("Conformance/cases/\(name)")
        return try JSONDecoder().decode(ConformanceTable.self, from: Data(contentsOf: url))
    }

    package var nowTimestamp: Timestamp { Timestamp(nanosecondsSinceEpoch: now * 1_000_000_000) }
}

package struct ConformanceCase: Decodable, Sendable, CustomStringConvertible {
    package struct Request: Decodable, Sendable {
        package var method: String
        package var path: String
        package var headers: [[String]]
        package var body: String?
        package var bodyBase64: String?
        package var bodySize: Int?
    }

    package struct Configuration: Decodable, Sendable {
        package var strict: [String]?
        package var nonJSONBody: String?
        package var undeclaredTokens: String?
        /// Fault specs, exactly as under `scriptedAnswers` in the server's config file.
        package var scriptedAnswers: [JSONValue]?
        /// The server config file's `liveActivities` block (schemas, device-strict mode, …).
        package var liveActivities: JSONValue?
    }

    package struct Expectation: Decodable, Sendable {
        package var status: Int
        package var reason: String?
        /// The rules' warning codes (`jwt-`, `auth-` and the device's `la-` codes are not listed here).
        package var warnings: [String]
        package var timestamp: Int64?
        package var strict: Bool?
        /// The simulated device's `la-` warning codes (any order); checked when given.
        package var deviceWarnings: [String]?
        /// What the simulated device did (`LiveActivityOutcome` raw value), or `"none"` when the push never
        /// reached it; checked when given.
        package var liveActivity: String?
    }

    package var id: String
    package var title: String
    package var source: String
    package var request: Request
    /// Pushes sent first, on the same connection, whose answers the case does not check.
    package var before: [Request]?
    package var environment: APNsEnvironment?
    /// `valid` (default), `none` or `rejected:<Reason>`.
    package var auth: String?
    /// `empty` (default) or `declared`.
    package var registry: String?
    package var configuration: Configuration?
    package var expect: Expectation

    package var description: String { "\(id): \(title)" }

    /// Codes other modules add on top of the rules' own warnings.
    package static let otherModulesWarningPrefixes = ["jwt-", "auth-", "la-"]

    /// The body bytes: `body` as UTF-8, `bodyBase64` decoded, or a generated JSON object of exactly `bodySize` bytes.
    package static func bodyBytes(_ request: Request) -> [UInt8] {
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

    package func httpRequest(_ request: Request? = nil, streamID: Int32 = 1) -> HTTPRequest {
        let request = request ?? self.request
        return HTTPRequest(
            method: request.method, path: request.path, authority: "api.sandbox.push.apple.com",
            headers: request.headers.map { HeaderField($0[0], $0[1]) }, body: Self.bodyBytes(request),
            streamID: streamID,
            connection: ConnectionInfo(
                id: 1, remoteAddress: "in-memory", localPort: 0, tls: ConformanceCertificates.tls(forAuth: auth),
                environment: environment ?? .development))
    }

    package func ruleConfiguration() -> RuleConfiguration {
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
