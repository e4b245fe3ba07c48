/// Error handling (A-RESP): what the sender does after each kind of answer, by the `ReasonPolicy` table.
enum ErrorGrader {
    static func answers(_ history: [ObservedRequest], _ policy: ReasonPolicy) -> [(Int, ObservedRequest)] {
        history.enumerated().filter { ReasonPolicy.of(status: $0.element.status, reason: $0.element.reason) == policy }.map { ($0.offset, $0.element) }
    }

    /// Requests received after `answer` was answered that satisfy `matching`.
    static func later(_ history: [ObservedRequest], after index: Int, _ matching: (ObservedRequest) -> Bool) -> [ObservedRequest] {
        let answer = history[index]
        return history[(index + 1)...].filter { $0.receivedAtNanos >= answer.answeredAtNanos && matching($0) }
    }

    static func tokenGone(_ history: [ObservedRequest]) -> RuleResult {
        let gone = answers(history, .tokenGone)
        if gone.isEmpty { return .notApplicable(.errorTokenGone, "no 410 answer (inject some: --inject Unregistered:5%)") }
        var findings: [Finding] = []
        var reported: Set<String> = []
        for (index, answer) in gone {
            guard let token = answer.deviceToken, !reported.contains(token) else { continue }
            let reuse = later(history, after: index) { $0.deviceToken == token }
            if let first = reuse.first {
                reported.insert(token)
                findings.append(Finding(.fail, "\(plural(reuse.count, "more request")) to token \(token.prefix(12))… after 410 \(answer.reason ?? "")", requests: [first.id, answer.id]))
            }
        }
        return RuleResult(rule: .errorTokenGone, summary: "\(plural(gone.count, "410 answer"))", findings: findings)
    }

    static func permanent(_ history: [ObservedRequest]) -> RuleResult {
        let refused = answers(history, .permanent)
        if refused.isEmpty { return .notApplicable(.errorPermanent, "no permanent error answer") }
        var findings: [Finding] = []
        for (index, answer) in refused {
            let retries = later(history, after: index) { $0.pushKey == answer.pushKey }
            if let first = retries.first {
                findings.append(Finding(.fail, "retried \(plural(retries.count, "time")) after \(answer.status) \(answer.reason ?? ""), which is permanent", requests: [first.id, answer.id]))
            }
        }
        return RuleResult(rule: .errorPermanent, summary: "\(plural(refused.count, "permanent error"))", findings: Array(findings.prefix(10)))
    }

    static func transient(_ history: [ObservedRequest], minimumBackoffMilliseconds: Int64) -> RuleResult {
        let busy = answers(history, .retryLater).filter { $0.1.status != 400 }
        if busy.isEmpty { return .notApplicable(.errorTransient, "no 429/500/503 answer (inject some: --inject ServiceUnavailable:5%)") }
        var findings: [Finding] = []
        var retried = 0
        for (index, answer) in busy {
            guard let retry = later(history, after: index, { $0.pushKey == answer.pushKey }).first else {
                findings.append(Finding(.fail, "not retried after \(answer.status) \(answer.reason ?? ""): the push is lost", requests: [answer.id]))
                continue
            }
            retried += 1
            let wait = retry.receivedAtNanos - answer.answeredAtNanos
            if wait < minimumBackoffMilliseconds * 1_000_000 {
                // Apple advises a delay but gives no number; a hasty retry that APNs refused again shows in its answer.
                findings.append(Finding(.warn, "retried \(milliseconds(wait)) after \(answer.status) \(answer.reason ?? ""): no back-off (at least \(minimumBackoffMilliseconds) ms expected)", requests: [retry.id, answer.id]))
            }
        }
        return RuleResult(rule: .errorTransient, summary: "\(retried) of \(plural(busy.count, "429/500/503 answer")) retried", findings: Array(findings.prefix(10)))
    }

    /// Judged by what the sender could know. The server processes (and the mock records) only streams up to the
    /// GOAWAY's last-stream-id, and stream ids on a connection rise in the order requests arrive, so every request
    /// recorded on the closed connection was sent before the GOAWAY could reach the sender, however close its
    /// arrival was to the answer: none is held against it. What counts is the reaction: a new connection for what
    /// came next, and a push the GOAWAY left unanswered sent again.
    static func goaway(_ history: [ObservedRequest], context: RunContext) -> RuleResult {
        let closes = history.enumerated().filter { $0.element.endedConnection }
        if closes.isEmpty { return .notApplicable(.errorGoaway, "no GOAWAY was sent (inject some: --inject goaway:every=20)") }
        var findings: [Finding] = []
        for (index, close) in closes {
            let elsewhere = later(history, after: index) { $0.connectionID != close.connectionID }
            if close.status == 0, !elsewhere.contains(where: { $0.pushKey == close.pushKey }) {
                findings.append(Finding(.fail, "the push the GOAWAY left unanswered on connection \(close.connectionID) was never sent again: it is lost", requests: [close.id]))
            }
            if elsewhere.isEmpty, let status = context.commandExitStatus, status != 0 {
                findings.append(Finding(.fail, "nothing was sent on a new connection after GOAWAY and the sender exited with status \(status)", requests: [close.id]))
            }
        }
        if let expected = context.expectedPushes {
            let delivered = Set(history.filter { $0.status == 200 }.map(\.pushKey)).count
            if delivered < expected {
                findings.append(Finding(.fail, "\(delivered) of \(expected) pushes delivered: what GOAWAY left unanswered was not re-sent"))
            }
        }
        return RuleResult(rule: .errorGoaway, summary: "\(plural(closes.count, "GOAWAY")), \(plural(Set(history.map(\.connectionID)).count, "connection"))", findings: findings)
    }

    static func unknownReason(_ history: [ObservedRequest], context: RunContext) -> RuleResult {
        // An answer with a reason: a stream reset, a black hole or a closed connection (status 0) has none.
        let odd = history.enumerated().filter { answer in
            answer.element.status != 200 && answer.element.status != 0 && !ReasonPolicy.isKnown(answer.element.reason ?? "")
        }
        if odd.isEmpty { return .notApplicable(.errorUnknownReason, "no answer with an unknown reason") }
        var findings: [Finding] = []
        for (index, answer) in odd where later(history, after: index, { _ in true }).isEmpty {
            if let status = context.commandExitStatus, status != 0 {
                findings.append(Finding(.fail, "the sender exited with status \(status) after \(answer.status) \(answer.reason ?? "(no reason)")", requests: [answer.id]))
            }
        }
        return RuleResult(rule: .errorUnknownReason, summary: "\(plural(odd.count, "unknown reason"))", findings: findings)
    }
}
