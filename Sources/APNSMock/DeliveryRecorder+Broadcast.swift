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
            receivedAt: request.receivedAt, connectionID: request.connection.id,
            clientAddress: request.connection.remoteAddress, environment: answer.environment,
            tls: request.connection.tls, method: request.method, path: request.path,
            deviceToken: nil, headers: Self.recordedHeaders(request),
            providerToken: answer.sender.map {
                ProviderTokenSummary(header: $0.headerJSON, claims: $0.claimsJSON, fingerprint: $0.tokenFingerprint)
            } ?? answer.presentedToken.map {
                ProviderTokenSummary(header: $0.headerJSON, claims: $0.claimsJSON, fingerprint: $0.fingerprint)
            },
            payload: request.body, status: answer.status, reason: answer.reason?.rawValue, apnsID: answer.requestID,
            apnsUniqueID: answer.uniqueID, warnings: answer.warnings, explanation: explanation, ruleID: answer.ruleID,
            pushType: request.value("apns-push-type"), topic: answer.bundleID,
            liveActivity: fanOut.map { RecordedLiveActivityOutcome(code: $0.code, explanation: $0.explanation) },
            latencyMicroseconds: latencyMicroseconds)
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
