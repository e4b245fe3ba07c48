
extension Verdict {
    /// The verdict with a scripted answer in place of the rules' answer (fault injection). The rules' findings
    /// stay in the record: the explanation says what was scripted and what the rules would have answered.
    public func replaced(by script: ScriptedReply, now: Timestamp) -> Verdict {
        let rulesAnswer = answerSummary
        var findings = self.findings
        findings.ruleID = "scripted"
        findings.explanation = "Scripted answer (fault injection) \(script.status) \(script.reason ?? ""); the rules would have answered \(rulesAnswer)."
        // A 410 always carries an integer millisecond timestamp (A-RESP).
        let answer = MockAnswer(
            origin: .scripted, status: script.status, wireReason: script.reason ?? "",
            timestamp: script.status == 410 ? (script.timestamp ?? now.millisecondsSinceEpoch) : nil)
        return .mockAnswer(answer, findings)
    }

    /// Strict Live Activity mode: a push APNs accepts but the device would drop is answered 400 with a
    /// mock-specific reason. NOT APNs behaviour; labelled so (`isStrictMockAnswer`).
    public func strictDeviceRejection(wireReason: String, explanation: String?) -> Verdict {
        var findings = self.findings
        findings.ruleID = "strict.live-activity-device"
        findings.explanation = "Strict mode (not APNs behaviour): APNs would answer 200, but the device would drop this push. " + (explanation ?? "")
        return .mockAnswer(MockAnswer(origin: .strictDevice, status: 400, wireReason: wireReason), findings)
    }

    /// No HTTP answer at all (a fault withheld it); the record says so with status null.
    public func withoutAnswer() -> Verdict {
        .unanswered(findings)
    }
}
