import APNSJSON

/// What the payload checker needs besides the payload: the time, the app's schemas and what the device knows
/// about the activity the push is addressed to.
public struct LiveActivityCheckContext: Sendable {
    public var now: Timestamp
    public var schemas: [ActivitySchema]
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    /// The attributes type of the activity the token shows, when known (it was started by a push the mock saw).
    public var activityAttributesType: Optional<String>
    /// That activity's static attributes, for the combined 4 KB size check on updates.
    public var activityAttributes: Optional<JSONValue>
    /// `aps.timestamp` of the last push the device applied to that activity.
    public var lastAppliedTimestamp: Optional<Double>
    /// How far ahead of `now` a `timestamp` may be before it is flagged.
    public var futureTimestampTolerance: Double

    public init(
        now: Timestamp, schemas: [ActivitySchema] = [], activityAttributesType: String? = nil,
        activityAttributes: JSONValue? = nil, lastAppliedTimestamp: Double? = nil,
        futureTimestampTolerance: Double = LiveActivityConfiguration.defaultFutureTimestampTolerance
    ) {
        self.now = now
        self.schemas = schemas
        self.activityAttributesType = activityAttributesType
        self.activityAttributes = activityAttributes
        self.lastAppliedTimestamp = lastAppliedTimestamp
        self.futureTimestampTolerance = futureTimestampTolerance
    }
}
