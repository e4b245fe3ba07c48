import APNSJSON

/// A `liveactivity` push as the simulated device receives it (after APNs accepted it with 200).
public struct LiveActivityPush: Sendable, Hashable {
    /// The hex token from `:path`: an activity's update token or a push-to-start token.
    public var deviceToken: String
    /// `apns-topic`, the bundle ID with `.push-type.liveactivity`.
    public var topic: String
    /// `apns-priority`; 10 when the header was omitted (A-SEND). Only 10 counts against the budget (A-LA).
    public var priority: Int
    /// The `apns-id` APNs answered with, so timelines match delivery records.
    public var apnsID: String
    public var payload: [UInt8]
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    /// `payload` as already parsed by the push rules, so the device does not parse it again; nil to parse here.
    public var parsedPayload: Optional<JSONValue>
    /// `apnsID`'s bits when the pipeline generated it (`RandomUUID.makeWithBits`), so the timeline keeps them without
    /// reading the text; nil to read them from `apnsID`.
    public var apnsIDBits: Optional<CanonicalUUID.Bits>

    public init(
        deviceToken: String, topic: String, priority: Int = 10, apnsID: String, payload: [UInt8],
        parsedPayload: JSONValue? = nil, apnsIDBits: CanonicalUUID.Bits? = nil
    ) {
        self.deviceToken = deviceToken
        self.topic = topic
        self.priority = priority
        self.apnsID = apnsID
        self.payload = payload
        self.parsedPayload = parsedPayload
        self.apnsIDBits = apnsIDBits
    }
}
