import APNSCore

/// A scripted answer (fault injection) as the pipeline uses it: what to answer in place of the rules, and whether
/// to close the connection after it. Where scripts are kept and how they match is the source's business.
public struct ScriptedOutcome: Sendable, Hashable {
    public var status: Int
    /// The `reason` to send; nil sends `""` on an error status.
    public var reason: String?
    /// Integer milliseconds for a 410; nil uses the pipeline's clock (A-RESP: a 410 always has one).
    public var timestamp: Int64?
    /// Send HTTP/2 GOAWAY after the answer, with `{"reason": …}` as debug data as APNs does (A-SEND).
    public var goAway: Bool

    public init(status: Int, reason: String?, timestamp: Int64? = nil, goAway: Bool = false) {
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
        self.goAway = goAway
    }
}

/// Where the pipeline asks for "the scripted answer for this request" (consuming one use of it).
public protocol ScriptedOutcomeSource {
    /// The scripted answer for this request, given the rules' verdict (its parsed facts); nil when none matches.
    func scriptedOutcome(for request: HTTPRequest, verdict: Verdict) -> ScriptedOutcome?
}

/// No scripted answers at all.
public struct NoScriptedOutcomes: ScriptedOutcomeSource {
    public init() {}
    public func scriptedOutcome(for request: HTTPRequest, verdict: Verdict) -> ScriptedOutcome? { nil }
}
