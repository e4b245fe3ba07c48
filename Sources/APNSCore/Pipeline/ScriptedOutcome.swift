import Foundation

/// A scripted answer in its simplest form: a status and reason in place of the rules' answer, optionally followed
/// by GOAWAY. `Verdict.replaced(by:now:)` turns it into the verdict APNs would send.
public struct ScriptedReply: Sendable, Hashable {
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

/// What fault injection does to one request, as the pipeline applies it: the verdict to answer and record, the
/// connection actions that go with it, whether anything is sent at all, and the mark of the delivery record.
public struct ScriptedOutcome: Sendable {
    /// The verdict answered and recorded (the rules' own verdict when the fault does not replace the answer).
    public var verdict: Verdict
    public var actions: [ConnectionAction]
    /// False when nothing at all is sent for the request (black hole).
    public var sendsAnything: Bool
    /// True when the fault's answer replaces the rules' answer: the simulated device and strict mode are skipped.
    public var replacesAnswer: Bool
    /// What the delivery record says about the fault.
    public var mark: InjectedFault
    /// A SETTINGS_MAX_CONCURRENT_STREAMS the fault announced; the connection keeps it.
    public var announcedMaxConcurrentStreams: UInt32?

    public init(
        verdict: Verdict, actions: [ConnectionAction], sendsAnything: Bool, replacesAnswer: Bool, mark: InjectedFault,
        announcedMaxConcurrentStreams: UInt32?
    ) {
        self.verdict = verdict
        self.actions = actions
        self.sendsAnything = sendsAnything
        self.replacesAnswer = replacesAnswer
        self.mark = mark
        self.announcedMaxConcurrentStreams = announcedMaxConcurrentStreams
    }

    /// `reply` in place of `rules`, with its GOAWAY, marked as the answer of fault `index`.
    public static func answering(_ reply: ScriptedReply, to rules: Verdict, index: Int = 0, now: Timestamp) -> ScriptedOutcome {
        let rulesAnswer = rules.answerSummary
        let actions: [ConnectionAction] = reply.goAway
            ? [.goAway(errorCode: 0, debugData: PushPipeline.goAwayDebugData(reason: reply.reason))] : []
        let spec = "{\"reason\":\"\(reply.reason ?? "")\",\"status\":\(reply.status)}"
        return ScriptedOutcome(
            verdict: rules.replaced(by: reply, now: now), actions: actions, sendsAnything: true, replacesAnswer: true,
            mark: InjectedFault(faultJSON: spec, index: index, effect: "answer", rulesAnswer: rulesAnswer),
            announcedMaxConcurrentStreams: nil)
    }
}

/// Where the pipeline asks "does a fault apply to this request, and what does it do?" (consuming one use of it).
public protocol ScriptedOutcomeSource {
    /// The outcome for this request given the rules' verdict and how many requests its connection has carried
    /// (1 for the first); nil when no fault applies.
    func scriptedOutcome(
        for request: HTTPRequest, verdict: Verdict, requestsOnConnection: Int, now: Timestamp
    ) -> ScriptedOutcome?
}

/// No faults at all.
public struct NoScriptedOutcomes: ScriptedOutcomeSource {
    public init() {}
    public func scriptedOutcome(
        for request: HTTPRequest, verdict: Verdict, requestsOnConnection: Int, now: Timestamp
    ) -> ScriptedOutcome? { nil }
}
