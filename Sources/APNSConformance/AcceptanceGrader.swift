/// Accepted by APNs (A-SEND, A-RESP): the sender's own requests get 200 and carry no warnings.
enum AcceptanceGrader {
    static func status(_ history: [ObservedRequest]) -> RuleResult {
        let own = history.filter { !$0.isInjected }
        let findings = own.filter { $0.status != 200 }.map { request in
            Finding(.fail, "\(request.status) \(request.reason ?? "")\(request.explanation.map { ": \($0)" } ?? "")", requests: [request.id])
        }
        let injected = history.count - own.count
        let summary = "\(own.count - findings.count) of \(plural(own.count, "request")) accepted"
            + (injected > 0 ? " (\(injected) injected answers not counted)" : "")
        return RuleResult(rule: .acceptedStatus, summary: summary, findings: findings)
    }

    static func warnings(_ history: [ObservedRequest]) -> RuleResult {
        let accepted = history.filter { $0.status == 200 }
        var byCode: [String: (message: String, ids: [Int64])] = [:]
        var order: [String] = []
        for request in accepted {
            for warning in request.warnings {
                if byCode[warning.code] == nil { order.append(warning.code); byCode[warning.code] = (warning.message, []) }
                byCode[warning.code]?.ids.append(request.id)
            }
        }
        let findings = order.map { code in
            Finding(.warn, "\(code) on \(plural(byCode[code]!.ids.count, "request")): \(byCode[code]!.message)", requests: byCode[code]!.ids)
        }
        return RuleResult(rule: .acceptedWarnings, summary: "\(plural(accepted.count, "accepted request")) checked", findings: findings)
    }
}
