import APNSCore

/// The pipeline's answer to one request: the response, what to do to the connection with it, and the draft of
/// the delivery record.
public struct PushDecision: Sendable {
    public var response: HTTPResponse
    /// In order: GOAWAY from a scripted answer, then a raised stream limit.
    public var actions: [ConnectionAction]
    public var record: DeliveryDraft

    public init(response: HTTPResponse, actions: [ConnectionAction], record: DeliveryDraft) {
        self.response = response
        self.actions = actions
        self.record = record
    }
}
