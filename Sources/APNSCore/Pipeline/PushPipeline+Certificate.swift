
extension PushPipeline {
    /// A push refused for its certificate (`BadCertificate`, `BadCertificateEnvironment`) is answered on its stream
    /// (A-RESP lists both as 403) and the connection is then ended with GOAWAY `NO_ERROR` carrying
    /// `{"reason":"…"}`, as APNs was observed to end such connections (apns2#93, pushy#312):
    /// every later push on it would be refused the same way. Only the rules' own answer does this: an injected
    /// fault or a strict answer that happens to use these reasons keeps its own connection actions.
    static func certificateRefusalAction(for verdict: Verdict, faultReplacesAnswer: Bool) -> ConnectionAction? {
        guard !faultReplacesAnswer else { return nil }
        // `verdict.reason` unless the answer is strict mode's, with one look at the case (each look copies the
        // whole verdict first).
        let reason: Reason?
        switch verdict {
        case .rejected(let rejection, _): reason = rejection.reason
        case .mockAnswer(let answer, _): reason = answer.origin.isStrict ? nil : answer.wireReason.flatMap(Reason.init(rawValue:))
        case .accepted, .unanswered: return nil
        }
        guard let reason, reason == .badCertificate || reason == .badCertificateEnvironment else { return nil }
        return .goAway(errorCode: 0, debugData: goAwayDebugData(reason: reason.rawValue))
    }
}
