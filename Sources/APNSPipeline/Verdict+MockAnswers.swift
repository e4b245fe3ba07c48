import APNSCore

extension Verdict {
    /// The verdict with a scripted answer in place of the rules' answer (fault injection). The rules' findings
    /// stay in the record: the explanation says what was scripted and what the rules would have answered.
    public func replaced(by script: ScriptedReply, now: Timestamp) -> Verdict {
        var scripted = self
        let rulesAnswer = status == 200 ? "200" : "\(status) \(wireReason ?? "")"
        scripted.status = script.status
        scripted.reason = script.reason.flatMap(Reason.init(rawValue:))
        scripted.wireReason = script.status == 200 ? nil : (script.reason ?? "")
        // A 410 always carries an integer millisecond timestamp (A-RESP).
        scripted.timestamp = script.status == 410 ? (script.timestamp ?? now.millisecondsSinceEpoch) : nil
        scripted.ruleID = "scripted"
        scripted.explanation = "Scripted answer (fault injection) \(script.status) \(script.reason ?? ""); the rules would have answered \(rulesAnswer)."
        return scripted
    }

    /// Strict Live Activity mode: a push APNs accepts but the device would drop is answered 400 with a
    /// mock-specific reason. NOT APNs behaviour; labelled so (`isStrictMockAnswer`).
    public func strictDeviceRejection(wireReason: String, explanation: String?) -> Verdict {
        var strict = self
        strict.status = 400
        strict.reason = nil
        strict.wireReason = wireReason
        strict.isStrictMockAnswer = true
        strict.ruleID = "strict.live-activity-device"
        strict.explanation = "Strict mode (not APNs behaviour): APNs would answer 200, but the device would drop this push. " + (explanation ?? "")
        return strict
    }
}
