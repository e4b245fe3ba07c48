import APNSCore
import APNSStore
import Foundation

/// The simulated device behind accepted Live Activity pushes.
final class LiveActivityService: Sendable {
    struct Result {
        var outcome: LiveActivityOutcome
        var warnings: [PushWarning]
        /// In strict mode, the mock-specific reason for a push the device would drop.
        var strictAnswer: String?
    }

    func receive(request: HTTPRequest, verdict: Verdict, now: Timestamp) -> Result {
        Result(outcome: LiveActivityOutcome(code: "applied", explanation: ""), warnings: [], strictAnswer: nil)
    }

    func activitiesJSON() -> Data { Data(#"{"activities":[]}"#.utf8) }
    func activityJSON(token: String) -> Data? { nil }
}
