import APNSCore
@testable import APNSMock
import APNSStore
import Foundation
import Testing

/// With the in-memory store the recorder appends on the pushing thread and answers at once: a stored record is
/// counted with its own status and answered `send(true)`; once the store is closed the push is answered
/// `send(false)` (the caller then sends `503 ServiceUnavailable`), counted as that 503, and the store health says why.
@Suite struct DeliveryRecorderAppendTests {
    /// Received now: the store's default retention keeps the last 24 hours.
    static let record = DeliveryRecord(
        receivedAt: SystemClock().now(), connectionID: 4,
        clientAddress: "127.0.0.1:50000", method: "POST", path: "/3/device/abcd", deviceToken: "abcd",
        headers: [HeaderField(":method", "POST")], payload: [], status: 400, reason: "BadDeviceToken",
        apnsID: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", pushType: "alert", topic: "com.example.app",
        latencyMicroseconds: 12)

    @Test func inMemoryStoreAnswersAtOnceAndCounts() throws {
        let store = InMemoryDeliveryStore()
        let metrics = Metrics()
        let health = StoreHealth(log: RateLimitedLog(interval: .seconds(60)) { _ in })
        let recorder = DeliveryRecorder(store: store, metrics: metrics, health: health)
        let answers = Locked<[Bool]>([])

        recorder.append(Self.record) { stored in answers.withLock { $0.append(stored) } }
        #expect(answers.withLock { $0 } == [true], "answered before append returns")
        let kept = try #require(try store.deliveries(DeliveryQuery(limit: 10)).first)
        #expect(kept.apnsID == Self.record.apnsID && kept.status == 400 && kept.reason == "BadDeviceToken")
        #expect(metrics.prometheusText().contains(#"apns_mock_requests_total{status="400"} 1"#))
        #expect(health.degradedReason == nil)

        store.close()
        recorder.append(Self.record) { stored in answers.withLock { $0.append(stored) } }
        #expect(answers.withLock { $0 } == [true, false])
        #expect(metrics.prometheusText().contains(#"apns_mock_requests_total{status="503"} 1"#))
        #expect(metrics.prometheusText().contains(#"apns_mock_rejections_total{reason="ServiceUnavailable"} 1"#))
        #expect(health.degradedReason != nil)
    }
}
