import APNSCore
import Foundation
import Testing

/// `Conformance/cases/device-push.json`, decoded. Format: Conformance/README.md.
struct ConformanceTable: Decodable {
    var schema: Int
    var now: Int64
    var registry: [DeclaredDeviceToken]
    var cases: [ConformanceCase]

    /// The repository root, found from this file's path (Tests/APNSCoreTests/Support/…).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func load(_ name: String = "device-push.json") throws -> ConformanceTable {
        let url = repositoryRoot.appendingPathComponent("Conformance/cases/\(name)")
        return try JSONDecoder().decode(ConformanceTable.self, from: Data(contentsOf: url))
    }

    var nowTimestamp: Timestamp { Timestamp(nanosecondsSinceEpoch: now * 1_000_000_000) }
}

struct ConformanceCase: Decodable, Sendable, CustomTestStringConvertible {
    struct Request: Decodable, Sendable {
        var method: String
        var path: String
        var headers: [[String]]
        var body: String?
        var bodyBase64: String?
        var bodySize: Int?
    }

    struct Configuration: Decodable, Sendable {
        var strict: [String]?
        var nonJSONBody: String?
        var undeclaredTokens: String?
    }

    struct Expectation: Decodable, Sendable {
        var status: Int
        var reason: String?
        var warnings: [String]
        var timestamp: Int64?
        var strict: Bool?
    }

    var id: String
    var title: String
    var source: String
    var request: Request
    var environment: APNsEnvironment?
    /// `valid` (default), `none` or `rejected:<Reason>`.
    var auth: String?
    /// `empty` (default) or `declared`.
    var registry: String?
    var configuration: Configuration?
    var expect: Expectation

    var testDescription: String { "\(id): \(title)" }

    /// The body bytes: `body` as UTF-8, `bodyBase64` decoded, or a generated JSON object of exactly `bodySize` bytes.
    func bodyBytes() -> [UInt8] {
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

    func httpRequest() -> HTTPRequest {
        HTTPRequest(
            method: request.method, path: request.path, authority: "api.sandbox.push.apple.com",
            headers: request.headers.map { HeaderField($0[0], $0[1]) }, body: bodyBytes(),
            connection: ConnectionInfo(
                id: 1, remoteAddress: "in-memory", localPort: 0, tls: ConformanceCertificates.tls(forAuth: auth),
                environment: environment ?? .development))
    }

    func ruleConfiguration() -> RuleConfiguration {
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
