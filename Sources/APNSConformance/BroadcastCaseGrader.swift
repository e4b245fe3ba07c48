import APNSJSON
import Foundation

/// Grades an answer to a broadcast or channel-management case (`cases/broadcast.json`) as that API answers
/// (A-BERR, A-CHAN, A-BSEND): status; `apns-request-id` on every answer (the request's when it sent a UUID); on
/// errors `content-type: application/json` and the expected `reason`; a create answers `apns-channel-id`; a send's
/// 200 has no body.
package enum BroadcastCaseGrader {
    package static func isBroadcastCase(_ item: ServerCase) -> Bool { item.setup != nil || item.listener != nil }

    /// Every way the answer differs from the expectation (empty: the case passes).
    package static func problems(_ item: ServerCase, _ answer: ServerAnswer) -> [String] {
        var problems: [String] = []
        let expect = item.expect
        let bodyText = String(decoding: answer.body.prefix(300), as: UTF8.self)
        if answer.status != expect.status {
            return ["status \(answer.status), expected \(expect.status)" + (answer.body.isEmpty ? "" : " (body \(bodyText))")]
        }
        let sent = item.request.headerPairs.first { $0.name == "apns-request-id" }?.value
        let answered = answer.value("apns-request-id")
        if answered == nil {
            problems.append("no apns-request-id in the answer")
        } else if let sent, ServerCaseGrader.isUUID(sent), answered != sent {
            problems.append("apns-request-id \"\(answered ?? "")\" is not the echo of \"\(sent)\"")
        }
        guard let reason = expect.reason else {
            if expect.status == 201, answer.value("apns-channel-id") == nil { problems.append("201 without apns-channel-id") }
            if item.listener == nil, !answer.body.isEmpty { problems.append("200 with a body (\(bodyText)); APNs sends none") }
            return problems
        }
        if answer.value("content-type") != "application/json" {
            problems.append("content-type \(answer.value("content-type").map { "\"\($0)\"" } ?? "missing"), expected application/json")
        }
        let got = JSONValue.parse(answer.body)?["reason"]?.stringValue
        if got != reason { problems.append("reason \(got.map { "\"\($0)\"" } ?? "missing"), expected \"\(reason)\"") }
        return problems
    }
}
