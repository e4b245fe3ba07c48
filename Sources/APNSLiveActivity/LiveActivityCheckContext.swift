import APNSJSON
import APNSCore

/// What the payload checker needs besides the payload: the time, the app's schemas and what the device knows
/// about the activity the push is addressed to.
public struct LiveActivityCheckContext: Sendable {
    public var now: Timestamp
    public var schemas: [ActivitySchema]
    /// The attributes type of the activity the token shows, when known (it was started by a push the mock saw).
    public var activityAttributesType: String?
    /// That activity's static attributes, for the combined 4 KB size check on updates.
    public var activityAttributes: JSONValue?
    /// `aps.timestamp` of the last push the device applied to that activity.
    public var lastAppliedTimestamp: Double?
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
