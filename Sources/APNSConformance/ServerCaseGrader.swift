import Foundation

/// An answer as the runner received it.
public struct ServerAnswer: Sendable, Equatable {
    public var status: Int
    /// Lower-case names, in order.
    public var headers: [HeaderPair]
    public var body: [UInt8]

    public struct HeaderPair: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(status: Int, headers: [HeaderPair], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func value(_ name: String) -> String? { headers.first { $0.name == name }?.value }
}

/// Grades an answer against a case's expectation, as APNs answers (A-RESP): status; on errors a JSON body whose
/// `reason` is the expected one, `content-type: application/json`, and an integer millisecond `timestamp` only on
/// 410; `apns-id` echoed when the request sent one, else a UUID; a 200 without a body.
public enum ServerCaseGrader {
    /// Every way the answer differs from the expectation (empty: the case passes).
    public static func problems(_ item: ServerCase, _ answer: ServerAnswer) -> [String] {
        var problems: [String] = []
        let expect = item.expect
        let bodyText = String(decoding: answer.body.prefix(300), as: UTF8.self)
        if answer.status != expect.status {
            problems.append("status \(answer.status), expected \(expect.status)" + (answer.body.isEmpty ? "" : " (body \(bodyText))"))
            return problems
        }
        let sentIDs = item.request.headerPairs.filter { $0.name == "apns-id" }.map(\.value)
        let apnsID = answer.value("apns-id")
        if sentIDs.count == 1, expect.status != 400, apnsID != sentIDs[0] {
            problems.append("apns-id \(apnsID.map { "\"\($0)\"" } ?? "missing") is not the echo of \"\(sentIDs[0])\"")
        } else if sentIDs.isEmpty, !(apnsID.map(isUUID) ?? false) {
            problems.append("apns-id \(apnsID.map { "\"\($0)\"" } ?? "missing") is not a UUID")
        }
        if expect.status == 200 {
            if !answer.body.isEmpty { problems.append("200 with a body (\(bodyText)); APNs sends none") }
            return problems
        }
        if answer.value("content-type") != "application/json" {
            problems.append("content-type \(answer.value("content-type").map { "\"\($0)\"" } ?? "missing"), expected application/json")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any] else {
            problems.append("the body is not a JSON object (\(bodyText))")
            return problems
        }
        let reason = object["reason"] as? String
        if reason != expect.reason {
            problems.append("reason \(reason.map { "\"\($0)\"" } ?? "missing"), expected \"\(expect.reason ?? "")\"")
        }
        if let wanted = expect.timestamp {
            let got = (object["timestamp"] as? NSNumber)?.int64Value
            if got != wanted { problems.append("timestamp \(got.map(String.init) ?? "missing"), expected \(wanted)") }
        } else if expect.status == 410, !(object["timestamp"] is NSNumber) {
            problems.append("410 without an integer timestamp")
        }
        if expect.status != 410, object["timestamp"] != nil {
            problems.append("timestamp on a \(answer.status) answer (APNs sends it only with 410)")
        }
        return problems
    }

    static func isUUID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}

/// One case's outcome.
public struct ServerCaseResult: Sendable, Equatable {
    public enum Verdict: String, Sendable { case pass, fail, skip }

    public var id: String
    public var title: String
    public var source: String?
    public var verdict: Verdict
    /// The problems (fail) or the reason (skip).
    public var messages: [String]
    public var status: Int?
    public var reason: String?

    public init(id: String, title: String, source: String?, verdict: Verdict, messages: [String], status: Int? = nil, reason: String? = nil) {
        self.id = id
        self.title = title
        self.source = source
        self.verdict = verdict
        self.messages = messages
        self.status = status
        self.reason = reason
    }
}

/// The report of `apns-mock conformance server`: terminal text, JSON, JUnit XML, exit status.
public struct ServerConformanceReport: Sendable {
    public var url: String
    public var results: [ServerCaseResult]
    /// Set when the peer could not be graded case by case (it does not speak HTTP/2).
    public var transportProblem: String?

    public init(url: String, results: [ServerCaseResult], transportProblem: String? = nil) {
        self.url = url
        self.results = results
        self.transportProblem = transportProblem
    }

    public var passed: Int { results.filter { $0.verdict == .pass }.count }
    public var failed: Int { results.filter { $0.verdict == .fail }.count + (transportProblem == nil ? 0 : 1) }
    public var skipped: Int { results.filter { $0.verdict == .skip }.count }

    /// 0 every graded case passed, 1 a case failed (or the peer is not HTTP/2).
    public var exitStatus: Int32 { failed > 0 ? 1 : 0 }

    public func terminalText() -> String {
        var lines: [String] = ["apns-mock conformance server \(url)"]
        if let transportProblem { lines.append("FAIL  transport.http2  \(transportProblem)") }
        for result in results {
            switch result.verdict {
            case .pass: lines.append("PASS  \(result.id)")
            case .fail:
                lines.append("FAIL  \(result.id)  \(result.title)")
                for message in result.messages { lines.append("        \(message)") }
            case .skip: lines.append("skip  \(result.id)  \(result.messages.first ?? "")")
            }
        }
        lines.append("\(passed) passed, \(failed) failed, \(skipped) skipped (of \(results.count) cases)")
        return lines.joined(separator: "\n") + "\n"
    }

    public func jsonData() throws -> Data {
        var object: [String: Any] = [
            "url": url, "passed": passed, "failed": failed, "skipped": skipped,
            "cases": results.map { result -> [String: Any] in
                var entry: [String: Any] = ["id": result.id, "title": result.title, "verdict": result.verdict.rawValue, "messages": result.messages]
                if let source = result.source { entry["source"] = source }
                if let status = result.status { entry["status"] = status }
                if let reason = result.reason { entry["reason"] = reason }
                return entry
            },
        ]
        if let transportProblem { object["transportProblem"] = transportProblem }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    /// JUnit XML: one `<testcase>` per case, named by its id and title; skipped cases are `<skipped>`.
    public func junitXML() -> String {
        let suite = Markup.escape("apns-mock conformance server \(url)")
        let total = results.count + (transportProblem == nil ? 0 : 1)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(suite)\" tests=\"\(total)\" failures=\"\(failed)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        xml += "  <testsuite name=\"\(suite)\" tests=\"\(total)\" failures=\"\(failed)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        if let transportProblem {
            xml += "    <testcase classname=\"apns-mock.server.transport\" name=\"transport.http2: the server speaks HTTP/2\">\n"
            xml += "      <failure message=\"\(Markup.escape(transportProblem))\" type=\"fail\"/>\n    </testcase>\n"
        }
        for result in results {
            xml += "    <testcase classname=\"apns-mock.server.device-push\" name=\"\(Markup.escape("\(result.id): \(result.title)"))\">\n"
            switch result.verdict {
            case .pass: break
            case .skip: xml += "      <skipped message=\"\(Markup.escape(result.messages.first ?? ""))\"/>\n"
            case .fail:
                let details = result.messages.joined(separator: "\n") + (result.source.map { "\nsource: \($0)" } ?? "")
                xml += "      <failure message=\"\(Markup.escape(result.messages.first ?? "failed"))\" type=\"fail\">\(Markup.escape(details))</failure>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
