@testable import APNSCore
import DeliveryFixtures
import Foundation
import Testing

@testable import APNSStore

/// The in-memory store encodes records outside its lock and keeps them in a ring that retention trims: every record
/// reads back as appended, whatever thread appended it, however big, and across resets.
@Suite struct InMemoryStoreTests {
    /// Within the default retention's age.
    static let start = SystemClock().now().nanosecondsSinceEpoch

    /// A Live Activity record numbered `number`: its own apns-id, token and payload, shared header values.
    static func record(_ number: Int, payload: Int = 120) -> DeliveryRecord {
        let token = String(repeating: String(format: "%08x", number), count: 8)
        let apnsID = String(format: "%08X-0000-4000-8000-%012X", number, number)
        return DeliveryRecord(
            receivedAt: Timestamp(nanosecondsSinceEpoch: start + Int64(number)), connectionID: UInt64(number % 3),
            clientAddress: "127.0.0.1:\(4000 + number % 3)",
            tls: TLSInfo(alpn: "h2", version: "TLSv1.3", cipher: "TLS_AES_256_GCM_SHA384", serverName: nil),
            method: "POST", path: "/3/device/\(token)", deviceToken: token,
            headers: [HeaderField(":method", "POST"), HeaderField(":path", "/3/device/\(token)"),
                      HeaderField("apns-topic", "com.example.app.push-type.liveactivity"),
                      HeaderField("apns-push-type", "liveactivity")],
            payload: Array(String(repeating: "\(number % 10)", count: payload).utf8), status: 200, reason: nil,
            apnsID: apnsID, apnsUniqueID: UUID().uuidString.lowercased(), pushType: "liveactivity",
            topic: "com.example.app.push-type.liveactivity",
            liveActivity: RecordedLiveActivityOutcome(code: "applied", explanation: "applied: content-state updated"),
            latencyMicroseconds: Int64(number))
    }

    @Test func bigAndSmallRecordsReadBackAndRetentionDropsTheOldest() throws {
        let store = InMemoryDeliveryStore(retention: RetentionPolicy(maxCount: 2000, maxAge: nil))
        var appended: [DeliveryRecord] = []
        for number in 1...6000 {
            let record = Self.record(number, payload: number % 97 == 0 ? 300_000 : 120)
            store.append(record) { _ in }
            appended.append(record.withID(Int64(number)))
        }
        let kept = try store.deliveries(DeliveryQuery(limit: 10_000, order: .oldestFirst))
        #expect(kept == Array(appended.suffix(2000)))
        #expect(try store.delivery(id: 4001) == appended[4000])
        #expect(try store.delivery(id: 4000) == nil)
        #expect(try store.delivery(apnsID: appended[5999].apnsID.lowercased()) == appended[5999])
    }

    @Test func recordsAppendedFromManyThreadsReadBackAsAppended() throws {
        let store = InMemoryDeliveryStore()
        let threads = 4
        let perThread = 500
        let appended = Locked<[Int64: DeliveryRecord]>([:])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let record = Self.record(thread * perThread + index)
                let id = store.append(record) { _ in }
                appended.withLock { $0[id] = record.withID(id) }
                if index % 100 == 0 { _ = try? store.deliveries(DeliveryQuery(limit: 50)) }
            }
        }
        let stored = try store.deliveries(DeliveryQuery(limit: threads * perThread, order: .oldestFirst))
        let expected = appended.withLock { $0 }
        #expect(stored.count == threads * perThread)
        for record in stored { #expect(expected[record.id] == record) }
    }

    @Test func recordsAfterAResetReadBack() throws {
        let store = InMemoryDeliveryStore()
        store.append(Self.record(1)) { _ in }
        #expect(try store.reset() == 1)
        let second = Self.record(2)
        let id = store.append(second) { _ in }
        #expect(try store.delivery(id: id) == second.withID(id))
        #expect(try store.deliveries(DeliveryQuery(limit: 10)) == [second.withID(id)])
    }
}
