import APNSCore
import APNSPipeline

extension ScriptedAnswers: ScriptedOutcomeSource {
    /// The next matching script (one use consumed), as the pipeline's outcome.
    public func scriptedOutcome(for request: HTTPRequest, verdict: Verdict) -> ScriptedOutcome? {
        take(deviceToken: verdict.deviceToken, topic: verdict.topic)?.outcome
    }
}

extension ScriptedAnswer {
    /// This script's answer as the pipeline uses it.
    public var outcome: ScriptedOutcome {
        ScriptedOutcome(status: status, reason: reason, timestamp: timestamp, goAway: goAway == true)
    }
}
