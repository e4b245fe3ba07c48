
/// Which deliveries a list, export or long poll is about. Every field is optional; set fields must all match.
/// The in-memory store evaluates `matches`; the SQLite store translates the same fields to SQL, and the shared
/// filter tests run against both.
public struct DeliveryFilter: Sendable, Hashable {
    /// Device token from the path (exact).
    public var token: String?
    /// `apns-topic` (exact).
    public var topic: String?
    /// `apns-push-type` (exact).
    public var pushType: String?
    /// HTTP status answered.
    public var status: Int?
    /// Wire reason string (exact, case-sensitive like Apple's spellings).
    public var reason: String?
    /// true: only status 200; false: only rejections.
    public var accepted: Bool?
    /// Received at or after this time.
    public var since: Timestamp?
    /// Received strictly before this time.
    public var until: Timestamp?
    /// Case-insensitive substring of the record's search text (ids, token, topic, reason, explanation, warnings,
    /// header values, payload).
    public var text: String?
    /// What the simulated device did with a Live Activity push (any status; pushes without an outcome never match).
    public var device: DeviceHandling?

    public init(
        token: String? = nil, topic: String? = nil, pushType: String? = nil, status: Int? = nil,
        reason: String? = nil, accepted: Bool? = nil, since: Timestamp? = nil, until: Timestamp? = nil,
        text: String? = nil, device: DeviceHandling? = nil
    ) {
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.status = status
        self.reason = reason
        self.accepted = accepted
        self.since = since
        self.until = until
        self.text = text
        self.device = device
    }

    public static let all = DeliveryFilter()

    public func matches(_ record: DeliveryRecord) -> Bool {
        if let token, record.deviceToken != token { return false }
        if let topic, record.topic != topic { return false }
        if let pushType, record.pushType != pushType { return false }
        if let status, record.status != status { return false }
        if let reason, record.reason != reason { return false }
        if let accepted, record.accepted != accepted { return false }
        if let since, record.receivedAt < since { return false }
        if let until, !(record.receivedAt < until) { return false }
        if let text, !text.isEmpty, !record.searchText.contains(text.lowercased()) { return false }
        if let device, !device.matches(outcomeCode: record.liveActivity?.code) { return false }
        return true
    }
}

/// A page of deliveries: a filter, a window of ids and an order.
public struct DeliveryQuery: Sendable, Hashable {
    public enum Order: String, Sendable, Hashable {
        case newestFirst = "desc"
        case oldestFirst = "asc"
    }

    public var filter: DeliveryFilter
    /// Only ids greater than this.
    public var afterID: Int64?
    /// Only ids smaller than this (paging backwards through a newest-first list).
    public var beforeID: Int64?
    public var limit: Int
    public var order: Order

    public init(
        filter: DeliveryFilter = .all, afterID: Int64? = nil, beforeID: Int64? = nil, limit: Int = 100,
        order: Order = .newestFirst
    ) {
        self.filter = filter
        self.afterID = afterID
        self.beforeID = beforeID
        self.limit = limit
        self.order = order
    }

    public func matches(_ record: DeliveryRecord) -> Bool {
        if let afterID, record.id <= afterID { return false }
        if let beforeID, record.id >= beforeID { return false }
        return filter.matches(record)
    }
}
