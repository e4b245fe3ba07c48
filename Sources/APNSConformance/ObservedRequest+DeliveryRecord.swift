import APNSCore

extension ObservedRequest {
    /// The request a delivery record describes.
    package init(_ record: DeliveryRecord) {
        self.init(
            id: record.id, receivedAtNanos: record.receivedAt.nanosecondsSinceEpoch,
            latencyMicroseconds: record.latencyMicroseconds, connectionID: Int64(bitPattern: record.connectionID),
            method: record.method, path: record.path, deviceToken: record.deviceToken,
            headers: record.headers.map { ($0.name, $0.value) }, tokenHeader: record.providerToken?.header,
            tokenClaims: record.providerToken?.claims, tokenFingerprint: record.providerToken?.fingerprint,
            payload: record.payloadText, status: record.status, reason: record.reason, apnsID: record.apnsID,
            warnings: record.warnings.map { Warning(code: $0.code, message: $0.message) },
            explanation: record.explanation, pushType: record.pushType, topic: record.topic,
            liveActivityOutcome: record.liveActivity?.code, liveActivityExplanation: record.liveActivity?.explanation,
            injectedFault: record.injected?.faultJSON, rulesAnswer: record.injected?.rulesAnswer)
    }
}
