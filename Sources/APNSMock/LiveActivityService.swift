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
        let list = device.allActivities(now: now).map { Self.view(of: $0, timeline: false) }
        return Self.encode(["activities": list])
    }

    func activityJSON(token: String, now: Timestamp) -> Data? {
        device.activity(token: token, now: now).map { Self.encode(Self.view(of: $0, timeline: true)) }
    }

    private static func view(of snapshot: ActivitySnapshot, timeline: Bool) -> [String: Any] {
        var object: [String: Any] = [
            "token": snapshot.deviceToken,
            "role": snapshot.role.rawValue,
            "topic": snapshot.topic,
            "attributesType": snapshot.attributesType ?? NSNull(),
            "state": snapshot.state?.rawValue ?? "none",
            "updatedAt": snapshot.timeline.last.map { iso8601($0.receivedAt) } ?? NSNull(),
            "attributes": json(snapshot.attributes),
            "contentState": json(snapshot.contentState),
            "lastAppliedTimestamp": snapshot.lastAppliedTimestamp ?? NSNull(),
            "startSeen": snapshot.startSeen,
            "priority10PushesInLastHour": snapshot.priority10PushesInLastHour,
            "budgetPerHour": snapshot.budgetPerHour,
            "issuedUpdateTokens": snapshot.issuedUpdateTokens,
        ]
        if let note = snapshot.stateNote { object["stateNote"] = note }
        if let startedAt = snapshot.startedAt { object["startedAt"] = iso8601(startedAt) }
        if let endedAt = snapshot.endedAt { object["endedAt"] = iso8601(endedAt) }
        if let staleDate = snapshot.staleDate { object["staleDate"] = iso8601(staleDate) }
        if let dismissAt = snapshot.dismissAt { object["dismissAt"] = iso8601(dismissAt) }
        if let score = snapshot.relevanceScore { object["relevanceScore"] = score }
        if timeline {
            object["timeline"] = snapshot.timeline.map { entry -> [String: Any] in
                [
                    "at": iso8601(entry.receivedAt), "event": entry.event ?? NSNull(), "apnsId": entry.apnsID,
                    "priority": entry.priority, "timestamp": entry.timestamp ?? NSNull(),
                    "outcome": entry.outcome.rawValue, "explanation": entry.explanation,
                ]
            }
        } else {
            object["timelineLength"] = snapshot.timeline.count
        }
        return object
    }

    private static func json(_ value: (some Encodable)?) -> Any {
        guard let value, let data = try? JSONEncoder().encode(value),
              let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return NSNull() }
        return object
    }

    private static func iso8601(_ time: Timestamp) -> String {
        DeliveryRecord.iso8601(time)
    }

    private static func encode(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
