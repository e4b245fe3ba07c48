import APNSJSON
import Foundation

/// An answer as the runner received it.
package struct ServerAnswer: Sendable, Equatable {
    package var status: Int
    /// Lower-case names, in order.
    package var headers: [HeaderPair]
    package var body: [UInt8]

    package struct HeaderPair: Sendable, Equatable {
        package var name: String
        package var value: String
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    package init(status: Int, headers: [HeaderPair], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package func value(_ name: String) -> String? { headers.first { $0.name == name }?.value }
}

/// Grades an answer against a case's expectation, as APNs answers (A-RESP): status; on errors a JSON body whose
/// `reason` is the expected one, `content-type: application/json`, and an integer millisecond `timestamp` only on
/// 410; `apns-id` echoed when the request sent one, else a UUID; a 200 without a body.
package enum ServerCaseGrader {
    /// Every way the answer differs from the expectation (empty: the case passes).
    package static func problems(_ item: ServerCase, _ answer: ServerAnswer) -> [String] {
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
        guard let object = JSONValue.parse(answer.body), object.isObject else {
            problems.append("the body is not a JSON object (\(bodyText))")
            return problems
        }
        let reason = object["reason"]?.stringValue
        if reason != expect.reason {
            problems.append("reason \(reason.map { "\"\($0)\"" } ?? "missing"), expected \"\(expect.reason ?? "")\"")
        }
        if let wanted = expect.timestamp {
            let got = object["timestamp"]?.int64Value
            if got != wanted { problems.append("timestamp \(got.map(String.init) ?? "missing"), expected \(wanted)") }
        } else if expect.status == 410, object["timestamp"]?.doubleValue == nil {
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
package struct ServerCaseResult: Sendable, Equatable {
    package enum Verdict: String, Sendable { case pass, fail, skip }

    package var id: String
    package var title: String
    package var source: String?
    package var verdict: Verdict
    /// The problems (fail) or the reason (skip).
    package var messages: [String]
    package var status: Int?
    package var reason: String?

    package init(id: String, title: String, source: String?, verdict: Verdict, messages: [String], status: Int? = nil, reason: String? = nil) {
        self.id = id
        self.title = title
        self.source = source
        self.verdict = verdict
        self.messages = messages
        self.status = status
        self.reason = reason
    }
}
