
/// Everything the payload checker found, for the delivery record (warnings) and for the simulated device (which
/// decides the outcome from the decode results).
public struct LiveActivityPayloadReport: Sendable {
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    /// The parsed `aps` fields; nil when the body is not JSON or has no `aps` object.
    public var payload: Optional<LiveActivityPayload>
    public var warnings: [PushWarning]
    /// The schema the push was checked against, if any.
    public var schema: Optional<ActivitySchema>
    /// How that schema was chosen when the push did not name it (e.g. "the only configured type").
    public var schemaNote: Optional<String>
    public var attributesIssues: [DecodeIssue]
    public var contentStateIssues: [DecodeIssue]
    /// Whether `aps.timestamp` is older than the last applied one.
    public var isOlderThanApplied: Bool

    public init(
        payload: LiveActivityPayload? = nil, warnings: [PushWarning] = [], schema: ActivitySchema? = nil,
        schemaNote: String? = nil, attributesIssues: [DecodeIssue] = [], contentStateIssues: [DecodeIssue] = [],
        isOlderThanApplied: Bool = false
    ) {
        self.payload = payload
        self.warnings = warnings
        self.schema = schema
        self.schemaNote = schemaNote
        self.attributesIssues = attributesIssues
        self.contentStateIssues = contentStateIssues
        self.isOlderThanApplied = isOlderThanApplied
    }

    /// The decoding error the device would hit on `attributes`.
    public var attributesFailure: DecodeIssue? { ContentStateChecker.firstFatal(attributesIssues) }
    /// The decoding error the device would hit on `content-state`.
    public var contentStateFailure: DecodeIssue? { ContentStateChecker.firstFatal(contentStateIssues) }
}
