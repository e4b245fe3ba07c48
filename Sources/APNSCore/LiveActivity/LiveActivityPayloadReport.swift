
/// Everything the payload checker found, for the delivery record (warnings) and for the simulated device (which
/// decides the outcome from the decode results).
package struct LiveActivityPayloadReport: Sendable {
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    /// The parsed `aps` fields; nil when the body is not JSON or has no `aps` object.
    package var payload: Optional<LiveActivityPayload>
    package var warnings: [PushWarning]
    /// The schema the push was checked against, if any.
    package var schema: Optional<ActivitySchema>
    /// How that schema was chosen when the push did not name it (e.g. "the only configured type").
    package var schemaNote: Optional<String>
    package var attributesIssues: [DecodeIssue]
    package var contentStateIssues: [DecodeIssue]
    /// Whether `aps.timestamp` is older than the last applied one.
    package var isOlderThanApplied: Bool

    package init(
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
    package var attributesFailure: DecodeIssue? { ContentStateChecker.firstFatal(attributesIssues) }
    /// The decoding error the device would hit on `content-state`.
    package var contentStateFailure: DecodeIssue? { ContentStateChecker.firstFatal(contentStateIssues) }
}
