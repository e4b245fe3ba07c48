/// The request facts the rules parse once and the verdict reports.
public struct PushFacts: Sendable, Codable, Hashable {
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    public var deviceToken: Optional<String>
    public var topic: Optional<String>
    public var pushType: Optional<PushType>
    public var apnsID: Optional<String>
    public var priority: Optional<Int>
    public var expiration: Optional<Int64>
    public var collapseID: Optional<String>

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
