
/// The pipeline's answer to one request: the response, what to do to the connection with it, and the draft of
/// the delivery record.
public struct PushDecision: Sendable {
    public var response: HTTPResponse
    /// In order: the fault's actions (GOAWAY, RST_STREAM, a delay, …), then a raised stream limit.
    public var actions: [ConnectionAction]
    public var record: DeliveryDraft
    /// False when a fault sends nothing at all (black hole). A reset stream or a closed connection still goes out
    /// as `response` with the actions that replace it.
    public var sendsResponse: Bool

    public init(response: HTTPResponse, actions: [ConnectionAction], record: DeliveryDraft, sendsResponse: Bool = true) {
        self.response = response
        self.actions = actions
        self.record = record
        self.sendsResponse = sendsResponse
    }
}
