import APNSCore
import APNSStore
import Foundation

/// The simulated device behind accepted Live Activity pushes, as the admin API shows it (the push pipeline drives
/// the device itself), and whether device-level drops are answered in strict mode.
final class LiveActivityService: Sendable {
    let device: LiveActivityDevice
    /// Answer device-level drops with HTTP 400 and a `MockDevice…` reason (NOT APNs behaviour).
    let strict: Bool

    /// Test hook: runs on the admin thread after a listing's activities were copied out of the device and before
    /// they are serialized (the device's lock is not held then; `LiveActivityReadOrderTests`).
    let beforeSerializing: (@Sendable (Int) -> Void)?

    init(device: LiveActivityDevice, strict: Bool, beforeSerializing: (@Sendable (Int) -> Void)? = nil) {
        self.device = device
        self.strict = strict
        self.beforeSerializing = beforeSerializing
    }

    // MARK: - Admin API shapes (docs/admin-api.md: the web inspector reads these keys)

    /// `GET /api/activities`: one page (the device's lock held only while it is copied), or what changed since a
    /// change sequence. Serialized after the lock is released.
    func activitiesJSON(_ query: ActivityListQuery, now: Timestamp) -> Data {
        let list: ActivityList
        if let since = query.changedSince {
            let changes = device.activities(changedSince: since, limit: query.page.limit, now: now)
            list = ActivityList(
                activities: changes.activities.map { ActivityView(snapshot: $0, showsTimeline: false) },
                changeSequence: changes.changeSequence, complete: changes.complete)
        } else {
            let page = device.activities(from: query.page.position, limit: query.page.limit, now: now)
            list = ActivityList(
                activities: page.activities.map { ActivityView(snapshot: $0, showsTimeline: false) },
                changeSequence: page.changeSequence, nextCursor: page.next.map(String.init), total: page.total)
        }
        beforeSerializing?(list.activities.count)
        return AdminJSON.encode(list)
    }

    func activityJSON(token: String, now: Timestamp) -> Data? {
        guard let snapshot = device.activity(token: token, now: now) else { return nil }
        let schemas = device.configuration.schemas
        return AdminJSON.encode(ActivityView(
            snapshot: snapshot, showsTimeline: true,
            schema: LiveActivityPayloadChecker.schema(forActivityOf: snapshot.attributesType, in: schemas)))
    }
}
