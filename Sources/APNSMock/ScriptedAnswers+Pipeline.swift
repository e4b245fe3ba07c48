import APNSCore

extension ScriptedAnswers: ScriptedOutcomeSource {
    /// The fault that fires for this request (its scope counters advance), applied to the rules' verdict.
    package func scriptedOutcome(
        for request: HTTPRequest, verdict: Verdict, requestsOnConnection: Int, now: Timestamp
    ) -> ScriptedOutcome? {
        guard !engine.isEmpty else { return nil }
        return engine
            .evaluate(FaultRequest(verdict: verdict, request: request, requestsOnConnection: requestsOnConnection, now: now))
            .map { $0.outcome(for: verdict, streamID: request.streamID, now: now) }
    }
}

extension ScriptedAnswer {
    /// This script's answer as the pipeline's reply.
    package var reply: ScriptedReply {
        ScriptedReply(status: status, reason: reason, timestamp: timestamp, goAway: goAway == true)
    }
}
