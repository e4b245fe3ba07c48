import Foundation
import Testing
@testable import APNSConformance

@Suite struct ReportTests {
    static func failingReport(strict: Bool = false) -> ConformanceReport {
        var h = SenderGraderTests.wellBehaved()
        h.add(payload: #"{"aps":{"alert":"<script>alert('x') & \"y\"</script>\u0001"}}"#, status: 400, reason: "BadDeviceToken")
        h.add(warnings: [.init(code: "jwt-iat-float", message: "iat <float>")])
        let results = SenderGrader().grade(h.requests)
        return ConformanceReport(title: "apns-mock check", command: ["python3", "x.py"], commandExitStatus: 0, results: results, requests: h.requests, strict: strict)
    }

    @Test func aFailedRuleMakesExitStatusOneAndWarningsOnlyUnderStrict() {
        let report = Self.failingReport()
        #expect(report.exitStatus == 1)
        #expect(report.failedRuleNames == ["accepted.status"])
        #expect(report.terminalText().contains("FAIL  accepted.status"))
        #expect(Self.failingReport(strict: true).failedRuleNames == ["accepted.status", "accepted.warnings"])
        let clean = ConformanceReport(title: "t", command: [], commandExitStatus: 0, results: SenderGrader().grade(SenderGraderTests.wellBehaved().requests), requests: [], strict: true)
        #expect(clean.exitStatus == 0)
        var crashed = clean
        crashed.commandExitStatus = 3
        #expect(crashed.exitStatus == 1, "a failed command fails the run even when every rule holds")
        #expect(crashed.terminalText().contains("the command itself failed"))
    }

    @Test func junitHasANamedTestcasePerRuleAndEscapesEverything() {
        let xml = Self.failingReport().junitXML()
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == ConformanceRule.all.count)
        #expect(!xml.contains("<script>"))
        #expect(!xml.contains("\u{0001}"))
        #expect(xml.contains("<failure message=\"400 BadDeviceToken"))
    }

    @Test func htmlShowsTheRequestTheAnswerAndACurlLineEscaped() {
        let html = Self.failingReport().html()
        #expect(html.contains("BadDeviceToken"))
        #expect(html.contains("curl --http2"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)"))
        #expect(!html.contains("<script>"))
    }

    @Test func jsonNamesEachRuleWithItsVerdictAndTheEvidence() throws {
        let object = try JSONSerialization.jsonObject(with: Data(Self.failingReport().jsonText().utf8)) as! [String: Any]
        #expect(object["result"] as? String == "fail")
        let rules = object["rules"] as! [[String: Any]]
        #expect(rules.first { $0["id"] as? String == "accepted.status" }?["verdict"] as? String == "fail")
        let requests = object["requests"] as! [[String: Any]]
        #expect(requests.contains { ($0["curl"] as? String)?.contains("--data-binary") == true })
    }

    @Test func curlQuotesSingleQuotes() {
        let request = ObservedRequest(id: 1, receivedAtNanos: 0, connectionID: 1, deviceToken: "ab", headers: [(":method", "POST"), ("apns-topic", "t'x")], payload: "{'a'}")
        #expect(CurlLine.reproduce(request) == #"curl --http2 --cacert "$APNS_MOCK_CA_FILE" -H "authorization: bearer $JWT" -H 'apns-topic: t'\''x' --data-binary '{'\''a'\''}' "$APNS_MOCK_URL"'/3/device/ab'"#)
    }

    @Test func adminJSONIsRead() throws {
        let json = #"{"deliveries":[{"id":2,"receivedAtNanos":5,"connectionId":3,"clientAddress":"127.0.0.1","method":"POST","path":"/3/device/ab","deviceToken":"ab","headers":[{"name":"apns-priority","value":"5"}],"providerToken":{"header":"{}","claims":"{\"iat\":1}","fingerprint":"fp"},"payload":"{}","status":410,"reason":"Unregistered","apnsId":"x","warnings":[{"code":"c","message":"m"}],"latencyMicroseconds":7,"liveActivity":{"code":"applied","explanation":"e"},"injected":{"fault":{"reason":"Unregistered"},"index":0,"effect":"answer","rulesAnswer":"200"}}],"latestId":2}"#
        let requests = try ObservedRequest.parseList(Data(json.utf8))
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.priority == 5 && request.status == 410 && request.tokenFingerprint == "fp" && request.isInjected)
        #expect(request.answeredAtNanos == 7005 && request.warnings.first?.code == "c" && request.liveActivityOutcome == "applied")
    }
}
