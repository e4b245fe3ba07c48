import APNSAdmin
import APNSCore
import APNSLiveActivity
import APNSStore
import Foundation

/// The simulated device behind accepted Live Activity pushes: what the device would do with each push,
/// the warnings the payload deserves, and, in strict mode, the mock-specific answer for a push the device drops.
final class LiveActivityService: Sendable {
    let device: LiveActivityDevice
    /// Answer device-level drops with HTTP 400 and a `MockDevice…` reason (NOT APNs behaviour).
    let strict: Bool

    struct Result {
        var outcome: APNSStore.LiveActivityOutcome
        var warnings: [PushWarning]
        /// In strict mode, the mock-specific reason for a push the device would drop.
        var strictAnswer: String?
    }

    init(device: LiveActivityDevice, strict: Bool) {
        self.device = device
        self.strict = strict
    }

    func receive(request: HTTPRequest, verdict: Verdict, now: Timestamp, apnsID: String) -> Result {
        let push = LiveActivityPush(
            deviceToken: verdict.deviceToken ?? "", topic: verdict.topic ?? "", priority: verdict.priority ?? 10,
            apnsID: apnsID, payload: request.body, parsedPayload: verdict.payload)
        let result = device.receive(push, now: now)
        var explanation = result.explanation
        if let issued = result.issuedUpdateToken {
            explanation += " The device issued the update token \(issued) for this activity."
        }
        return Result(
            outcome: APNSStore.LiveActivityOutcome(code: result.outcome.rawValue, explanation: explanation),
            warnings: result.warnings,
            strictAnswer: strict && result.isDeviceDrop ? result.mockStrictReason : nil)
    }

    // MARK: - Admin API shapes (docs/admin-api.md: the web inspector reads these keys)

    func activitiesJSON(now: Timestamp) -> Data {
        let views = device.allActivities(now: now).map { ActivityView(snapshot: $0, showsTimeline: false) }
        return AdminJSON.encode(ActivityList(activities: views))
    }

    func activityJSON(token: String, now: Timestamp) -> Data? {
        device.activity(token: token, now: now).map { AdminJSON.encode(ActivityView(snapshot: $0, showsTimeline: true)) }
    }
}
