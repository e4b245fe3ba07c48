import HTTP2
import APNSJSON
import APNSCommandLine
import APNSConformance
import APNSCore
import Foundation

extension ServerCaseRunner {
    /// A broadcast or channel-management case (`Conformance/cases/broadcast.json`): with `setup: channels` the
    /// channels are first created on the management endpoint (`{deletedChannel}` created and deleted,
    /// `{channel}` policy 1, `{noStoreChannel}` policy 0) and their ids put into the path and headers; the case then
    /// goes to the management endpoint (`listener: manage`) or the push endpoint, and is graded by
    /// `BroadcastCaseGrader`.
    func gradeBroadcast(_ item: ServerCase, authorization: ServerCasePlan.Authorization) throws -> ServerCaseResult {
        func failed(_ message: String) -> ServerCaseResult {
            ServerCaseResult(id: item.id, title: item.title, source: item.source, verdict: .fail, messages: [message])
        }
        guard let manage else { return failed("no --manage-url") }
        let now = SystemClock().now()
        let valid: String
        let token: String?
        do {
            valid = try signer.token(issuedAt: now)
            switch authorization {
            case .valid, .secondTokenTooSoon: token = valid
            case .none: token = nil
            case .badSignature:
                let parts = valid.split(separator: ".")
                token = "\(parts[0]).\(parts[1]).\(String(parts[2].reversed()))"
            case .expired: token = try signer.token(issuedAt: now.adding(seconds: -7200))
            }
        } catch {
            return failed("cannot sign a token: \(error)")
        }
        var substitutions: [(String, String)] = []
        if item.setup == "channels" {
            let connection = try HTTP2ClientConnection(endpoint: manage, tls: tls, timeout: timeout)
            defer { connection.close() }
            let bundle = "/1/apps/com.example.app/channels"
            func create(_ policy: Int) -> String? {
                let body = Array(#"{"message-storage-policy":\#(policy),"push-type":"LiveActivity"}"#.utf8)
                let request = HTTP2Request(path: bundle, headers: [HeaderField("authorization", "bearer \(valid)")], body: body)
                guard case .success(let answer) = send(request, on: connection), answer.status == 201 else { return nil }
                return answer.value("apns-channel-id")
            }
            guard let deleted = create(1) else { return failed("set-up: creating a channel on \(manage) was not answered 201") }
            let delete = HTTP2Request(method: "DELETE", path: bundle, headers: [
                HeaderField("authorization", "bearer \(valid)"), HeaderField("apns-channel-id", deleted)])
            guard case .success(let gone) = send(delete, on: connection), gone.status == 204 else {
                return failed("set-up: deleting a channel on \(manage) was not answered 204")
            }
            guard let channel = create(1), let noStore = create(0) else {
                return failed("set-up: creating a channel on \(manage) was not answered 201")
            }
            substitutions = [("{deletedChannel}", deleted), ("{channel}", channel), ("{noStoreChannel}", noStore)]
        }
        func substitute(_ text: String) -> String {
            substitutions.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
        }
        var headers = item.request.headerPairs.map { HeaderField($0.name, substitute($0.value)) }
        if let token { headers.insert(HeaderField("authorization", "bearer \(token)"), at: 0) }
        let connection = try HTTP2ClientConnection(endpoint: item.listener == "manage" ? manage : endpoint, tls: tls, timeout: timeout)
        defer { connection.close() }
        let request = HTTP2Request(
            method: item.request.method ?? "POST", path: substitute(item.request.path), headers: headers, body: item.request.bodyBytes)
        let result = send(request, on: connection)
        guard case .success(let response) = result else { return failed("no answer: \(Self.describe(result))") }
        return graded(item, response, grader: BroadcastCaseGrader.problems, idHeader: "apns-request-id")
    }

    /// The case's result: the grader's problems, then (when there are none and an admin API is given) the delivery
    /// record's warnings, found by the answer's `idHeader`.
    func graded(
        _ item: ServerCase, _ response: HTTP2Response, grader: (ServerCase, ServerAnswer) -> [String], idHeader: String
    ) -> ServerCaseResult {
        let answer = ServerAnswer(status: response.status, headers: response.headers.map { .init($0.name, $0.value) }, body: response.body)
        var problems = grader(item, answer)
        if problems.isEmpty, let admin, let expected = item.expect.warnings, let id = response.value(idHeader) {
            problems += Self.warningProblems(admin: admin, apnsID: id, expected: expected)
        }
        let reason = JSONValue.parse(response.body)?["reason"]?.stringValue
        return ServerCaseResult(
            id: item.id, title: item.title, source: item.source, verdict: problems.isEmpty ? .pass : .fail, messages: problems,
            status: response.status, reason: reason)
    }
}
