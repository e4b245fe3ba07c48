import APNSAdmin
import APNSCore
import APNSLiveActivity
import APNSStore
import Foundation

/// The simulated device behind accepted Live Activity pushes, as the admin API shows it (the push pipeline drives
/// the device itself), and whether device-level drops are answered in strict mode.
final class LiveActivityService: Sendable {
    let device: LiveActivityDevice
    /// Answer device-level drops with HTTP 400 and a `MockDevice…` reason (NOT APNs behaviour).
    let strict: Bool

    init(device: LiveActivityDevice, strict: Bool) {
        self.device = device
        self.strict = strict
    }

    // MARK: - Admin API shapes (docs/admin-api.md: the web inspector reads these keys)

    func activitiesJSON(now: Timestamp) -> Data {
        let views = device.allActivities(now: now).map { ActivityView(snapshot: $0, showsTimeline: false) }
        return AdminJSON.encode(ActivityList(activities: views))
    }

    func activityJSON(token: String, now: Timestamp) -> Data? {
        guard let snapshot = device.activity(token: token, now: now) else { return nil }
        let schemas = device.configuration.schemas
        return AdminJSON.encode(ActivityView(
            snapshot: snapshot, showsTimeline: true,
            schema: LiveActivityPayloadChecker.schema(forActivityOf: snapshot.attributesType, in: schemas)))
    }
}
