/// The request facts the rules parse once and the verdict reports.
public struct PushFacts: Sendable, Codable, Hashable {
    public var deviceToken: String?
    public var topic: String?
    public var pushType: PushType?
    public var apnsID: String?
    public var priority: Int?
    public var expiration: Int64?
    public var collapseID: String?

    public init(
        deviceToken: String? = nil, topic: String? = nil, pushType: PushType? = nil, apnsID: String? = nil,
        priority: Int? = nil, expiration: Int64? = nil, collapseID: String? = nil
    ) {
        self.deviceToken = deviceToken
        self.topic = topic
        self.pushType = pushType
        self.apnsID = apnsID
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
    }
}
