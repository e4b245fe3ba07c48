
/// Everything the delivery record needs that the pipeline decided; the recorder adds the request itself, the
/// latency and the store's id.
public struct DeliveryDraft: Sendable {
    /// The final verdict (rules, scripted answer, device and strict mode applied).
    public var verdict: Verdict
    /// The `apns-id` answered with.
    public var apnsID: String
    // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
    // whole value once more (every field retained, then released).
    /// The `apns-unique-id` answered with (development only).
    public var uniqueID: Optional<String>
    /// What the simulated device did; nil when the push did not reach it.
    public var liveActivity: Optional<LiveActivityDeviceOutcome>
    /// The fault that produced (or withheld) the answer; nil when the answer is the rules'.
    public var injected: Optional<InjectedFault>
    /// The bits of `apnsID` and `uniqueID` when the pipeline generated them (`RandomUUID.makeWithBits`), so the
    /// store keeps them without reading the texts back; nil otherwise.
    public var apnsIDBits: Optional<CanonicalUUID.Bits>
    public var uniqueIDBits: Optional<CanonicalUUID.Bits>

    public init(
        verdict: Verdict, apnsID: String, uniqueID: String?, liveActivity: LiveActivityDeviceOutcome?,
        injected: InjectedFault? = nil, apnsIDBits: CanonicalUUID.Bits? = nil, uniqueIDBits: CanonicalUUID.Bits? = nil
    ) {
        self.verdict = verdict
        self.apnsID = apnsID
        self.uniqueID = uniqueID
        self.liveActivity = liveActivity
        self.injected = injected
        self.apnsIDBits = apnsIDBits
        self.uniqueIDBits = uniqueIDBits
    }
}

/// The simulated device's outcome as the record keeps it: the outcome's stable code and a sentence.
public struct LiveActivityDeviceOutcome: Sendable, Hashable {
    /// `LiveActivityOutcome.rawValue`, e.g. `applied`, `ignoredOlderTimestamp`.
    public var code: String
    public var explanation: String

    public init(code: String, explanation: String) {
        self.code = code
        self.explanation = explanation
    }
}
