import Foundation
import Testing
@testable import APNSConformance

/// `conformance server`: which cases can be replayed against a peer the runner cannot configure, and how an
/// answer is graded (A-RESP).
@Suite struct ServerCaseTests {
    static func item(_ json: String) throws -> ServerCase {
        try JSONDecoder().decode(ServerCase.self, from: Data(json.utf8))
    }

    static let base = #""id":"x","title":"t","request":{"path":"/3/device/abcd","headers":[["apns-topic","com.example.app"]],"body":"{}"}"#

    @Test(arguments: [
        (#"{\#(base),"expect":{"status":200}}"#, ServerCasePlan.send(.valid, production: false)),
        (#"{\#(base),"auth":"rejected:MissingProviderToken","expect":{"status":403}}"#, .send(.none, production: false)),
        (#"{\#(base),"auth":"rejected:InvalidProviderToken","expect":{"status":403}}"#, .send(.badSignature, production: false)),
        (#"{\#(base),"auth":"rejected:ExpiredProviderToken","expect":{"status":403}}"#, .send(.expired, production: false)),
        (#"{\#(base),"auth":"rejected:TooManyProviderTokenUpdates","expect":{"status":429}}"#, .send(.secondTokenTooSoon, production: false)),
    ])
    func casesTheRunnerCanSend(json: String, plan: ServerCasePlan) throws {
        #expect(ServerCasePlan.plan(try Self.item(json), hasProductionURL: false) == plan)
    }

    @Test(arguments: [
        (#"{\#(base),"registry":"declared","expect":{"status":200}}"#, "declared device tokens"),
        (#"{\#(base),"configuration":{"strict":["aps-custom-key"]},"expect":{"status":400}}"#, "configured with"),
        (#"{\#(base),"environment":"production","expect":{"status":200}}"#, "--production-url"),
        (#"{\#(base),"auth":"none","expect":{"status":200}}"#, "certificate-style"),
        (#"{\#(base),"auth":"rejected:TopicDisallowed","expect":{"status":400}}"#, "TopicDisallowed"),
    ])
    func casesNeedingServerSetUpAreSkippedWithTheReason(json: String, why: String) throws {
        guard case .skip(let reason) = ServerCasePlan.plan(try Self.item(json), hasProductionURL: false) else {
            Issue.record("not skipped")
            return
        }
        #expect(reason.contains(why))
    }

    @Test func productionCasesRunWithAProductionURL() throws {
        let item = try Self.item(#"{\#(Self.base),"environment":"production","expect":{"status":200}}"#)
        #expect(ServerCasePlan.plan(item, hasProductionURL: true) == .send(.valid, production: true))
    }

    static let uuid = "0A1B2C3D-0000-4000-8000-00000000ABCD"

    @Test func gradesStatusReasonAndHeaders() throws {
        let rejection = try Self.item(#"{\#(Self.base),"expect":{"status":400,"reason":"BadDeviceToken"}}"#)
        let good = ServerAnswer(status: 400, headers: [.init("apns-id", Self.uuid), .init("content-type", "application/json")],
                                body: Array(#"{"reason":"BadDeviceToken"}"#.utf8))
        #expect(ServerCaseGrader.problems(rejection, good).isEmpty)
        var wrongReason = good
        wrongReason.body = Array(#"{"reason":"BadTopic"}"#.utf8)
        #expect(ServerCaseGrader.problems(rejection, wrongReason) == [#"reason "BadTopic", expected "BadDeviceToken""#])
        var noContentType = good
        noContentType.headers = [.init("apns-id", Self.uuid)]
        #expect(ServerCaseGrader.problems(rejection, noContentType).first?.contains("content-type") == true)
        var stamped = good
        stamped.body = Array(#"{"reason":"BadDeviceToken","timestamp":1}"#.utf8)
        #expect(ServerCaseGrader.problems(rejection, stamped).first?.contains("only with 410") == true)
        let wrongStatus = ServerAnswer(status: 200, headers: [.init("apns-id", Self.uuid)], body: [])
        #expect(ServerCaseGrader.problems(rejection, wrongStatus) == ["status 200, expected 400"])
    }

    @Test func apnsIDIsEchoedOrANewUUID() throws {
        let echo = try Self.item(#"{"id":"x","title":"t","request":{"path":"/3/device/ab","headers":[["apns-id","123e4567-e89b-12d3-a456-4266554400a0"]]},"expect":{"status":200}}"#)
        #expect(ServerCaseGrader.problems(echo, ServerAnswer(status: 200, headers: [.init("apns-id", "123e4567-e89b-12d3-a456-4266554400a0")], body: [])).isEmpty)
        #expect(ServerCaseGrader.problems(echo, ServerAnswer(status: 200, headers: [.init("apns-id", Self.uuid)], body: [])).count == 1)
        let fresh = try Self.item(#"{\#(Self.base),"expect":{"status":200}}"#)
        #expect(ServerCaseGrader.problems(fresh, ServerAnswer(status: 200, headers: [], body: [])) == ["apns-id missing is not a UUID"])
        #expect(ServerCaseGrader.problems(fresh, ServerAnswer(status: 200, headers: [.init("apns-id", Self.uuid)], body: Array("x".utf8))).count == 1)
    }

    @Test func goneTokenNeedsItsTimestamp() throws {
        let gone = try Self.item(#"{\#(Self.base),"expect":{"status":410,"reason":"Unregistered","timestamp":1767139200000}}"#)
        let answer = ServerAnswer(status: 410, headers: [.init("apns-id", Self.uuid), .init("content-type", "application/json")],
                                  body: Array(#"{"reason":"Unregistered","timestamp":1767139200000}"#.utf8))
        #expect(ServerCaseGrader.problems(gone, answer).isEmpty)
        var late = answer
        late.body = Array(#"{"reason":"Unregistered","timestamp":5}"#.utf8)
        #expect(ServerCaseGrader.problems(gone, late) == ["timestamp 5, expected 1767139200000"])
    }

    @Test func bodySizeCasesArePaddedExactly() throws {
        let item = try Self.item(#"{"id":"x","title":"t","request":{"path":"/3/device/ab","headers":[],"bodySize":4097},"expect":{"status":413}}"#)
        let body = item.request.bodyBytes
        #expect(body.count == 4097)
        #expect((try JSONSerialization.jsonObject(with: Data(body))) is [String: Any])
    }

    @Test func reportExitsNonZeroOnAFailureOrANonHTTP2Peer() throws {
        let pass = ServerCaseResult(id: "a", title: "A", source: nil, verdict: .pass, messages: [])
        let skip = ServerCaseResult(id: "b", title: "B", source: nil, verdict: .skip, messages: ["why"])
        #expect(ServerConformanceReport(url: "u", results: [pass, skip]).exitStatus == 0)
        #expect(ServerConformanceReport(url: "u", results: [pass], transportProblem: "HTTP/1.1 only").exitStatus == 1)
        let fail = ServerCaseResult(id: "c", title: "C <&>", source: "A-RESP", verdict: .fail, messages: ["status 200, expected 400"])
        let report = ServerConformanceReport(url: "u", results: [pass, skip, fail])
        #expect(report.exitStatus == 1)
        let xml = report.junitXML()
        #expect(xml.contains(#"<testcase classname="apns-mock.server.device-push" name="c: C &lt;&amp;&gt;">"#))
        #expect(xml.contains(#"<skipped message="why"/>"#))
        #expect(xml.hasPrefix("<?xml") && xml.hasSuffix("</testsuites>\n"))
    }
}
