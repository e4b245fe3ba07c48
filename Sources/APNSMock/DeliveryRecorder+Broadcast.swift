import APNSCore
import APNSStore
import Foundation

extension DeliveryRecorder {
    /// Records a broadcast send or a channel-management request like a device push: the request, the answer, the
    /// rule that decided and, for a send, the fan-out to the simulated device as the record's device outcome.
    func recordBroadcast(
        request: HTTPRequest, answer: BroadcastAnswer, fanOut: BroadcastFanOut?, latencyMicroseconds: Int64,
        then send: @escaping @Sendable (_ stored: Bool) -> Void
    ) {
        var explanation = answer.explanation
        if explanation == nil, let operation = answer.operation, operation != .send {
            explanation = Self.describe(operation, answer)
        }
        let record = DeliveryRecord(
            request: request, environment: answer.environment, deviceToken: nil,
            providerToken: Self.providerTokenSummary(sender: answer.sender, presented: answer.presentedToken),
            status: answer.status, reason: answer.reason?.rawValue, apnsID: answer.requestID,
            apnsUniqueID: answer.uniqueID, warnings: answer.warnings, explanation: explanation, ruleID: answer.ruleID,
            strict: false, pushType: request.value("apns-push-type"), topic: answer.bundleID,
            liveActivity: fanOut.map { RecordedLiveActivityOutcome(code: $0.code, explanation: $0.explanation) },
            latencyMicroseconds: latencyMicroseconds, injected: nil)
        append(record, then: send)
    }

    /// What a management request did, for the record (its `channel` is in no other field).
    private static func describe(_ operation: BroadcastOperation, _ answer: BroadcastAnswer) -> String {
        let channel = answer.channel?.id ?? "-"
        switch operation {
        case .createChannel: return "channel management: created channel \(channel)"
        case .readChannel: return "channel management: read channel \(channel)"
        case .deleteChannel: return "channel management: delete channel \(channel)"
        case .listChannels: return "channel management: list (\(answer.listedChannelIDs?.count ?? 0) channels)"
        case .send: return "broadcast send"
        }
    }
}
