import APNSCore
import CoreTestSupport
import Foundation
import Testing

/// Runs every case of `Conformance/cases/broadcast.json` against `BroadcastDecider` (the live runner is
/// Tests/integration/test_broadcast.py; format: Conformance/README.md, "Broadcast cases").
@Suite struct BroadcastConformanceTests {
    struct Table: Decodable {
        var cases: [Case]
    }

    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        struct Request: Decodable, Sendable {
            var method: String
            var path: String
            var headers: [[String]]
            var body: String?
            var bodySize: Int?
        }

        struct Configuration: Decodable, Sendable {
            var disabledBundleIDs: [String]?
            var channelLimit: Int?
        }

        struct Expectation: Decodable, Sendable {
            var status: Int
            var reason: String?
            var warnings: [String]
        }

        var id: String
        var source: String
        var request: Request
        var listener: String?
        var setup: String?
        var auth: String?
        var configuration: Configuration?
        var expect: Expectation
        var testDescription: String { id }
    }

    static let cases: [Case] = {
        let url = ConformanceTable.repositoryRoot.appendingPathComponent("Conformance/cases/broadcast.json")
        guard let data = try? Data(contentsOf: url), let table = try? JSONDecoder().decode(Table.self, from: data) else { return [] }
        return table.cases
    }()

    /// Accepts the team's two bundle IDs; any other topic is the team's `TopicDisallowed`, as the real
    /// authenticator answers.
    final class TeamAuthenticator: ConnectionAuthenticator {
        var hasAuthenticated = false
        func authenticate(_ request: AuthRequest) -> AuthDecision {
            guard let topic = request.topic, ["com.example.app", "com.example.nobroadcast"].contains(topic) else {
                return .rejected(.topicDisallowed, explanation: "not the team's bundle ID")
            }
            hasAuthenticated = true
            return .accepted(TableAuthenticator.sender, warnings: [])
        }
    }

    @Test func theTableIsLoadedAndIdsAreUnique() {
        #expect(Self.cases.count >= 40)
        #expect(Set(Self.cases.map(\.id)).count == Self.cases.count)
    }

    @Test(arguments: cases) func answersAsTheCaseSays(_ item: Case) throws {
        let ids = Locked(["ZGVsZXRlZA==", "Y2hhbm5lbA==", "bm8tc3RvcmU=", "bmV4dA=="])
        let registry = ChannelRegistry(makeID: { ids.withLock { $0.isEmpty ? "bW9yZQ==" : $0.removeFirst() } })
        let settings = BroadcastSettings(
            disabledBundleIDs: item.configuration?.disabledBundleIDs ?? [], channelLimit: item.configuration?.channelLimit ?? 10_000)
        var substitutions: [String: String] = [:]
        if item.setup == "channels" {
            let deleted = try #require(registry.create(
                bundleID: "com.example.app", environment: .development, policy: .mostRecentMessageStored, limit: .max, now: .zero))
            registry.delete(id: deleted.id, bundleID: "com.example.app", environment: .development)
            let channel = try #require(registry.create(
                bundleID: "com.example.app", environment: .development, policy: .mostRecentMessageStored, limit: .max, now: .zero))
            let noStore = try #require(registry.create(
                bundleID: "com.example.app", environment: .development, policy: .noMessageStored, limit: .max, now: .zero))
            substitutions = ["{channel}": channel.id, "{noStoreChannel}": noStore.id, "{deletedChannel}": deleted.id]
        }
        func substitute(_ text: String) -> String {
            substitutions.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
        }
        let body: [UInt8]
        if let size = item.request.bodySize {
            let prefix = Array(#"{"aps":{},"p":""#.utf8)
            body = prefix + Array(repeating: UInt8(ascii: "a"), count: size - prefix.count - 2) + Array(#""}"#.utf8)
        } else {
            body = Array((item.request.body ?? "").utf8)
        }
        let request = HTTPRequest(
            method: item.request.method, path: substitute(item.request.path),
            headers: item.request.headers.map { HeaderField($0[0], substitute($0[1])) }, body: body)
        let authenticator: (any ConnectionAuthenticator)? = item.auth.map { TableAuthenticator.forCase($0) } ?? TeamAuthenticator()
        let decider = BroadcastDecider(settings: settings, channels: registry)
        let answer = item.listener == "manage"
            ? decider.manage(request, environment: .development, authenticator: authenticator, now: .zero)
            : try #require(decider.send(request, environment: .development, authenticator: authenticator, now: .zero))
        #expect(answer.status == item.expect.status, "\(item.id): \(answer.explanation ?? "")")
        #expect(answer.reason?.rawValue == item.expect.reason)
        #expect(Set(answer.warnings.map(\.code)) == Set(item.expect.warnings))
        let response = answer.response()
        #expect(response.value("apns-request-id") != nil)
        if item.expect.reason != nil { #expect(response.value("content-type") == "application/json") }
    }
}
