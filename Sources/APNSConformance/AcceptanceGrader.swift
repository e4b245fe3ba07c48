/// Accepted by APNs (A-SEND, A-RESP): the sender's own requests get 200 and carry no warnings.
enum AcceptanceGrader {
    static func status(_ history: [ObservedRequest]) -> RuleResult {
        // A fault that left the rules' answer as it was (a delay, a GOAWAY after the answer) hides nothing.
        let own = history.filter { !$0.answerWasInjected }
        let findings = own.filter { $0.status != 200 }.map { request in
            Finding(.fail, "\(request.status) \(request.reason ?? "")\(request.explanation.map { ": \($0)" } ?? "")", requests: [request.id])
        }
        let injected = history.count - own.count
        let summary = "\(own.count - findings.count) of \(plural(own.count, "request")) accepted"
            + (injected > 0 ? " (\(plural(injected, "answer")) decided by an injected fault not counted)" : "")
        return RuleResult(rule: .acceptedStatus, summary: summary, findings: findings)
    }

    static func warnings(_ history: [ObservedRequest]) -> RuleResult {
        let accepted = history.filter { $0.status == 200 }
        var byCode: [String: (message: String, ids: [Int64])] = [:]
        var order: [String] = []
        var notTheSender: Set<String> = []
        for request in accepted {
            for warning in request.warnings {
                if WarningSeverity.of(warning.code) == .notTheSender { notTheSender.insert(warning.code); continue }
                if byCode[warning.code] == nil { order.append(warning.code); byCode[warning.code] = (warning.message, []) }
                byCode[warning.code]?.ids.append(request.id)
            }
        }
        let findings = order.map { code in
            let verdict: Verdict = WarningSeverity.of(code) == .fail ? .fail : .warn
            return Finding(verdict, "\(code) on \(plural(byCode[code]!.ids.count, "request")): \(byCode[code]!.message)", requests: byCode[code]!.ids)
        }
        var summary = "\(plural(accepted.count, "accepted request")) checked"
        if !notTheSender.isEmpty {
            summary += " (\(notTheSender.sorted().joined(separator: ", ")) not held against the sender: the check's configuration decides it)"
        }
        return RuleResult(rule: .acceptedWarnings, summary: summary, findings: findings)
    }

    /// A push APNs accepted twice reaches the device twice (A-SEND: apns-collapse-id is what makes the device
    /// replace a notification). The same push is the same token and payload bytes, or the same apns-id.
    static func duplicates(_ history: [ObservedRequest]) -> RuleResult {
        let accepted = history.filter { $0.status == 200 && $0.header("apns-collapse-id") == nil }
        if accepted.isEmpty { return .notApplicable(.acceptedDuplicates, "no accepted request without apns-collapse-id") }
        func repeated(_ key: (ObservedRequest) -> String?) -> [[ObservedRequest]] {
            var groups: [String: [ObservedRequest]] = [:]
            var order: [String] = []
            for request in accepted {
                guard let value = key(request), !value.isEmpty else { continue }
                if groups[value] == nil { order.append(value) }
                groups[value, default: []].append(request)
            }
            return order.compactMap { groups[$0]!.count > 1 ? groups[$0]! : nil }
        }
        let samePush = repeated(\.pushKey)
        let sameID = repeated { $0.apnsID.lowercased() }.filter { Set($0.map(\.pushKey)).count > 1 }
        var findings: [Finding] = []
        for group in samePush.prefix(10) {
            findings.append(Finding(.fail, "the same push to token \((group[0].deviceToken ?? "-").prefix(12))… was accepted \(group.count) times: the device shows it \(group.count) times", requests: group.prefix(5).map(\.id)))
        }
        for group in sameID.prefix(10) {
            findings.append(Finding(.fail, "apns-id \(group[0].apnsID) was accepted \(group.count) times", requests: group.prefix(5).map(\.id)))
        }
        let extra = samePush.reduce(0) { $0 + $1.count - 1 }
        if samePush.count > 10 { findings.append(Finding(.fail, "… and \(samePush.count - 10) more pushes accepted more than once")) }
        let summary = "\(plural(accepted.count, "accepted request")), \(extra) of them a push accepted before"
        return RuleResult(rule: .acceptedDuplicates, summary: summary, findings: findings)
    }
}
