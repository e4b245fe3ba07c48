
/// What the simulated device did with one push, for the delivery record and the response pipeline.
public struct LiveActivityResult: Sendable, Hashable {
    public var outcome: LiveActivityOutcome
    /// The payload checker's warnings (`la-*` codes).
    public var warnings: [PushWarning]
    /// One or two sentences: what happened and what to change.
    public var explanation: String
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    /// The new per-activity update token, when a push-to-start created an activity and `issuesUpdateTokens` is on.
    public var issuedUpdateToken: Optional<String>
    /// The token whose activity the push concerns (the issued update token after a push-to-start); read the
    /// activity with `LiveActivityDevice.activity(token:now:)`. Not a snapshot: copying the activity and its
    /// timeline for every push would cost more the longer the history.
    public var activityToken: Optional<String>

    public init(
        outcome: LiveActivityOutcome, warnings: [PushWarning], explanation: String,
        issuedUpdateToken: String? = nil, activityToken: String? = nil
    ) {
        self.outcome = outcome
        self.warnings = warnings
        self.explanation = explanation
        self.issuedUpdateToken = issuedUpdateToken
        self.activityToken = activityToken
    }

    /// Whether the device dropped or ignored the push; the pipeline answers 400 with `mockStrictReason` for these
    /// in strict mode.
    public var isDeviceDrop: Bool { outcome.isDeviceDrop }
    /// The mock-only reason for strict mode. Not APNs behaviour.
    public var mockStrictReason: String? { outcome.mockStrictReason }
}
