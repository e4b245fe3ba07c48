import Foundation
import Testing
@testable import APNSConformance

/// `conformance server --manage-url`: which broadcast cases run, and how their answers are graded (A-BERR, A-CHAN).
@Suite struct BroadcastCaseGraderTests {
    static func item(_ json: String) throws -> ServerCase {
        try JSONDecoder().decode(ServerCase.self, from: Data(json.utf8))
    }

    static let send = #"{"id":"s","title":"t","setup":"channels","request":{"path":"/4/broadcasts/apps/com.example.app","headers":[["apns-request-id","0F5C7E0A-4B8B-4D5E-9C1B-2D7A3F6E9A10"]],"body":"{}"},"expect":{"status":400,"reason":"BadPriority"}}"#
    static let create = #"{"id":"c","title":"t","listener":"manage","request":{"method":"POST","path":"/1/apps/com.example.app/channels","headers":[],"body":"{}"},"expect":{"status":201}}"#

    @Test func broadcastCasesRunOnlyWithAManagementEndpoint() throws {
        let item = try Self.item(Self.send)
        #expect(ServerCasePlan.plan(item, hasProductionURL: false) == .skip("needs the channel-management endpoint to set up channels (give --manage-url)"))
        #expect(ServerCasePlan.plan(item, hasProductionURL: false, hasManageURL: true) == .send(.valid, production: false))
    }

    static let json = ServerAnswer.HeaderPair("content-type", "application/json")
    static let echoed = ServerAnswer.HeaderPair("apns-request-id", "0F5C7E0A-4B8B-4D5E-9C1B-2D7A3F6E9A10")

    @Test(arguments: [
        ("the expected answer", send, ServerAnswer(status: 400, headers: [json, echoed], body: Array(#"{"reason":"BadPriority"}"#.utf8)), []),
        ("another reason", send, ServerAnswer(status: 400, headers: [json, echoed], body: Array(#"{"reason":"BadTopic"}"#.utf8)),
         [#"reason "BadTopic", expected "BadPriority""#]),
        ("no request id", send, ServerAnswer(status: 400, headers: [json], body: Array(#"{"reason":"BadPriority"}"#.utf8)),
         ["no apns-request-id in the answer"]),
        ("another status", send, ServerAnswer(status: 200, headers: [echoed], body: []), ["status 200, expected 400"]),
        ("a create with its channel id", create, ServerAnswer(status: 201, headers: [echoed, .init("apns-channel-id", "YQ==")], body: []), []),
        ("a create without a channel id", create, ServerAnswer(status: 201, headers: [echoed], body: []), ["201 without apns-channel-id"]),
    ] as [(String, String, ServerAnswer, [String])])
    func grades(_ name: String, json: String, answer: ServerAnswer, problems: [String]) throws {
        #expect(BroadcastCaseGrader.problems(try Self.item(json), answer) == problems, "\(name)")
    }
}
