import APNSCore

/// What the simulated device did with one push, for the delivery record and the response pipeline.
public struct LiveActivityResult: Sendable, Hashable {
    public var outcome: LiveActivityOutcome
    /// The payload checker's warnings (`la-*` codes).
    public var warnings: [PushWarning]
    /// One or two sentences: what happened and what to change.
    public var explanation: String
    /// The new per-activity update token, when a push-to-start created an activity and `issuesUpdateTokens` is on.
    public var issuedUpdateToken: String?
    /// The activity after the push.
    public var activity: ActivitySnapshot?

    public init(
        outcome: LiveActivityOutcome, warnings: [PushWarning], explanation: String,
        issuedUpdateToken: String? = nil, activity: ActivitySnapshot? = nil
    ) {
        self.outcome = outcome
        self.warnings = warnings
        self.explanation = explanation
        self.issuedUpdateToken = issuedUpdateToken
        self.activity = activity
    }

    /// Whether the device dropped or ignored the push; the pipeline answers 400 with `mockStrictReason` for these
    /// in strict mode.
    public var isDeviceDrop: Bool { outcome.isDeviceDrop }
    /// The mock-only reason for strict mode. Not APNs behaviour.
    public var mockStrictReason: String? { outcome.mockStrictReason }
}
