/// The request facts the rules parse once and the verdict reports.
package struct PushFacts: Sendable, Codable, Hashable {
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    package var deviceToken: Optional<String>
    package var topic: Optional<String>
    package var pushType: Optional<PushType>
    package var apnsID: Optional<String>
    package var priority: Optional<Int>
    package var expiration: Optional<Int64>
    package var collapseID: Optional<String>

    package init(
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
