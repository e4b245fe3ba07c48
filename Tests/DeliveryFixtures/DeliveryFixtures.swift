import APNSCore
import APNSStore
import Foundation

// Records and appends shared by the store, admin, rendering tests and the benchmark.

/// A record with sensible defaults; tests override what they are about.
package func makeRecord(
    token: String? = "a1b2c3", topic: String? = "com.example.app", pushType: String? = "alert", status: Int = 200,
    reason: String? = nil, apnsID: String = UUID().uuidString.lowercased(),
    receivedAt: Timestamp = SystemClock().now(), explanation: String? = nil,
    payload: String = #"{"aps":{"alert":"hello"}}"#, warnings: [PushWarning] = [],
    liveActivityCode: String? = nil
) -> DeliveryRecord {
    DeliveryRecord(
        receivedAt: receivedAt, connectionID: 7, clientAddress: "127.0.0.1:50000", environment: .development,
        tls: TLSInfo(alpn: "h2", version: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256", serverName: "localhost"),
        method: "POST", path: "/3/device/\(token ?? "")", deviceToken: token,
        headers: [
            HeaderField("apns-topic", topic ?? ""), HeaderField("apns-push-type", pushType ?? ""),
            HeaderField("authorization", "bearer [ES256 kid=ABC123DEFG fp=0011223344556677]"),
        ],
        providerToken: ProviderTokenSummary(
            header: #"{"alg":"ES256","kid":"ABC123DEFG"}"#, claims: #"{"iss":"TEAM123456","iat":1767225600}"#,
            fingerprint: "0011223344556677"),
        payload: Array(payload.utf8), status: status, reason: reason, apnsID: apnsID,
        apnsUniqueID: status == 200 ? UUID().uuidString.lowercased() : nil, warnings: warnings,
        explanation: explanation, ruleID: reason.map { "rule-\($0)" }, pushType: pushType, topic: topic,
        liveActivity: liveActivityCode.map { RecordedLiveActivityOutcome(code: $0, explanation: "\($0): as the test says") }
            ?? (pushType == "liveactivity" ? RecordedLiveActivityOutcome(code: "applied", explanation: "updated") : nil),
        latencyMicroseconds: 42)
}

/// Appends and waits until the store reports the record durable; returns the id.
@discardableResult
package func appendDurably(_ store: any DeliveryStore, _ record: DeliveryRecord) -> Int64 {
    let done = DispatchSemaphore(value: 0)
    let id = store.append(record) { done.signal() }
    done.wait()
    return id
}
