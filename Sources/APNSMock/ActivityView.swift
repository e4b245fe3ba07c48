import APNSCore
import APNSJSON
import APNSStore
import Foundation

/// One activity as `GET /api/activities[/{token}]` shows it (docs/admin-api.md: the web inspector reads these keys).
/// Keys with `null` values are always written; `stateNote`, the dates and `relevanceScore` only when known. The
/// list shows `timelineLength`, the single activity its `timeline`.
struct ActivityView: Encodable {
    var snapshot: ActivitySnapshot
    var showsTimeline: Bool
    /// The app's schema for this activity's type, when the mock knows it: the single activity's `schema`, which the
    /// inspector's preview card reads to mark the keys the device ignores and to show `Date` fields as dates.
    var schema: ActivitySchema? = nil

    /// `schema`: each checked side as `[{"key", "type"}]` (the JSON key and its Swift type, `Date`, `Date?`, ...).
    struct SchemaView: Encodable {
        var schema: ActivitySchema

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            try container.encode(schema.attributesType, forKey: AnyCodingKey("attributesType"))
            func fields(_ list: [SchemaField]) -> [[String: String]] {
                list.map { ["key": $0.key, "type": $0.shape.swiftName] }
            }
            if schema.contentStateChecked {
                try container.encode(fields(schema.contentState), forKey: AnyCodingKey("contentState"))
            }
            if schema.attributesChecked {
                try container.encode(fields(schema.attributes), forKey: AnyCodingKey("attributes"))
            }
        }
    }

    struct Entry: Encodable {
        var at: String
        var event: String?
        var apnsId: String
        var priority: Int
        var timestamp: Double?
        var outcome: String
        var explanation: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            try container.encode(at, forKey: AnyCodingKey("at"))
            try container.encode(event, forKey: AnyCodingKey("event"))
            try container.encode(apnsId, forKey: AnyCodingKey("apnsId"))
            try container.encode(priority, forKey: AnyCodingKey("priority"))
            try container.encode(timestamp, forKey: AnyCodingKey("timestamp"))
            try container.encode(outcome, forKey: AnyCodingKey("outcome"))
            try container.encode(explanation, forKey: AnyCodingKey("explanation"))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        func always(_ value: some Encodable, _ key: String) throws {
            try container.encode(value, forKey: AnyCodingKey(key))
        }
        func ifKnown(_ value: (some Encodable)?, _ key: String) throws {
            try container.encodeIfPresent(value, forKey: AnyCodingKey(key))
        }
        try always(snapshot.deviceToken, "token")
        try always(snapshot.role.rawValue, "role")
        try always(snapshot.topic, "topic")
        try always(snapshot.attributesType, "attributesType")
        try always(snapshot.state?.rawValue ?? "none", "state")
        try always(snapshot.timeline.last.map { Self.iso8601($0.receivedAt) }, "updatedAt")
        try always(Self.representable(snapshot.attributes), "attributes")
        try always(Self.representable(snapshot.contentState), "contentState")
        try always(Self.finite(snapshot.lastAppliedTimestamp), "lastAppliedTimestamp")
        try always(snapshot.startSeen, "startSeen")
        try always(snapshot.priority10PushesInLastHour, "priority10PushesInLastHour")
        try always(snapshot.budgetPerHour, "budgetPerHour")
        try always(snapshot.issuedUpdateTokens, "issuedUpdateTokens")
        try ifKnown(snapshot.stateNote, "stateNote")
        try ifKnown(snapshot.startedAt.map(Self.iso8601), "startedAt")
        try ifKnown(snapshot.endedAt.map(Self.iso8601), "endedAt")
        try ifKnown(snapshot.staleDate.map(Self.iso8601), "staleDate")
        try ifKnown(snapshot.dismissAt.map(Self.iso8601), "dismissAt")
        try ifKnown(Self.finite(snapshot.relevanceScore), "relevanceScore")
        if showsTimeline, let schema {
            try always(SchemaView(schema: schema), "schema")
        }
        if showsTimeline {
            try always(snapshot.timeline.map {
                Entry(
                    at: Self.iso8601($0.receivedAt), event: $0.event, apnsId: $0.apnsID, priority: $0.priority,
                    timestamp: Self.finite($0.timestamp), outcome: $0.outcome.rawValue, explanation: $0.explanation)
            }, "timeline")
        } else {
            try always(snapshot.timeline.count, "timelineLength")
        }
    }

    private static func iso8601(_ time: Timestamp) -> String {
        DeliveryRecord.iso8601(time)
    }

    /// nil for infinities (a sent `1e400`), which JSON cannot carry, so one odd value does not void the answer.
    private static func finite(_ value: Double?) -> Double? {
        value.flatMap { $0.isFinite ? $0 : nil }
    }

    /// The value when `JSONEncoder` can write it (a number literal such as `1e400` it cannot), else nil.
    private static func representable(_ value: JSONValue?) -> JSONValue? {
        guard let value, (try? JSONEncoder().encode(value)) != nil else { return nil }
        return value
    }
}

/// `GET /api/activities`: a page (`nextCursor`, null on the last page, and `total`) or, with `changed_since`,
/// what changed (`complete`); `changeSequence` either way.
struct ActivityList: Encodable {
    var activities: [ActivityView]
    var changeSequence: Int
    var nextCursor: String?
    var total: Int?
    var complete: Bool?

    enum CodingKeys: String, CodingKey { case activities, changeSequence, nextCursor, total, complete }

    init(
        activities: [ActivityView], changeSequence: Int, nextCursor: String? = nil, total: Int? = nil,
        complete: Bool? = nil
    ) {
        self.activities = activities
        self.changeSequence = changeSequence
        self.nextCursor = nextCursor
        self.total = total
        self.complete = complete
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(activities, forKey: .activities)
        try container.encode(changeSequence, forKey: .changeSequence)
        if let complete {
            try container.encode(complete, forKey: .complete)
        } else {
            try container.encode(nextCursor, forKey: .nextCursor)
            try container.encode(total, forKey: .total)
        }
    }
}
