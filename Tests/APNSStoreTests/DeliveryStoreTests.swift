@testable import APNSCore
import DeliveryFixtures
import Foundation
import Testing

@testable import APNSStore

@Suite("Delivery store: append, read back, reset, export")
struct DeliveryStoreTests {
    @Test("append assigns increasing ids and every field reads back unchanged", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let records = [
            makeRecord(),
            makeRecord(pushType: "liveactivity", warnings: [PushWarning(code: "w", message: "careful")]),
            makeRecord(status: 400, reason: "BadDeviceToken", explanation: "token is not hex"),
        ]
        let ids = records.map { appendDurably(store, $0) }
        #expect(ids == ids.sorted() && Set(ids).count == 3)
        for (id, record) in zip(ids, records) {
            #expect(try store.delivery(id: id) == record.withID(id))
        }
        #expect(store.latestID == ids.last)
    }

    @Test("a payload that is not UTF-8 survives as bytes", arguments: StoreKind.allCases)
    func binaryPayload(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0x41]
        let base = makeRecord()
        let record = DeliveryRecord(
            receivedAt: base.receivedAt, connectionID: 1, clientAddress: "x", method: "POST", path: "/3/device/a",
            deviceToken: "a", headers: [], payload: bytes, status: 400, reason: "PayloadEmpty", apnsID: "id-1",
            pushType: nil, topic: nil, latencyMicroseconds: 1)
        let id = appendDurably(store, record)
        #expect(try store.delivery(id: id)?.payload == bytes)
    }

    @Test("get by apns-id ignores case and returns the newest of a reused id", arguments: StoreKind.allCases)
    func byAPNsID(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        appendDurably(store, makeRecord(status: 400, reason: "BadTopic", apnsID: "e9ad8a0c-0000-4000-8000-000000000001"))
        let second = appendDurably(store, makeRecord(apnsID: "e9ad8a0c-0000-4000-8000-000000000001"))
        #expect(try store.delivery(apnsID: "E9AD8A0C-0000-4000-8000-000000000001")?.id == second)
        #expect(try store.delivery(apnsID: "not-there") == nil)
    }

    @Test("the durability callback runs only once the record can be read back", arguments: StoreKind.allCases)
    func durableBeforeCallback(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let visible = Locked<[Bool]>([])
        let group = DispatchGroup()
        for _ in 0..<200 {
            group.enter()
            store.append(makeRecord()) { result in
                let readable = (try? result.get()).flatMap { try? store.delivery(id: $0) } != nil
                visible.withLock { $0.append(readable) }
                group.leave()
            }
        }
        group.wait()
        #expect(visible.withLock { $0.count } == 200)
        #expect(visible.withLock { $0.allSatisfy { $0 } })
    }

    @Test("reset deletes every record and ids keep counting up", arguments: StoreKind.allCases)
    func reset(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let before = (0..<5).map { _ in appendDurably(store, makeRecord()) }
        #expect(try store.reset() == 5)
        #expect(try store.count() == 0)
        #expect(try store.deliveries(DeliveryQuery()).isEmpty)
        let after = appendDurably(store, makeRecord())
        #expect(after > before.last!)
    }

    @Test("export writes one JSON object per line, oldest first, honouring the filter", arguments: StoreKind.allCases)
    func exportJSONLines(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        var expected: [Int64] = []
        for index in 0..<2_500 {
            let rejected = index % 2 == 1
            let id = appendDurably(store, makeRecord(status: rejected ? 400 : 200, reason: rejected ? "BadTopic" : nil))
            if rejected { expected.append(id) }
        }
        var output = Data()
        try store.exportJSONLines(DeliveryFilter(accepted: false)) { output.append($0) }
        let lines = output.split(separator: 0x0A)
        let decoded = try lines.map { try JSONDecoder().decode(DeliveryRecord.self, from: Data($0)) }
        #expect(decoded.map(\.id) == expected)
        #expect(decoded.allSatisfy { $0.reason == "BadTopic" })
    }

    @Test("a closed store refuses appends with .closed", arguments: StoreKind.allCases)
    func closed(kind: StoreKind) throws {
        let store = try kind.make()
        store.close()
        let outcome = Locked<Result<Int64, DeliveryStoreError>?>(nil)
        store.append(makeRecord()) { result in outcome.withLock { $0 = result } }
        #expect(outcome.withLock { $0 } == .failure(.closed))
    }

    @Test("a reopened SQLite store has every record and continues the ids")
    func reopen() throws {
        let directory = try TemporaryDirectory.make()
        let first = try SQLiteDeliveryStore(directory: directory.url.path)
        let ids = (0..<10).map { _ in appendDurably(first, makeRecord()) }
        first.close()
        let second = try SQLiteDeliveryStore(directory: directory.url.path)
        defer { second.close() }
        #expect(try second.count() == 10)
        #expect(second.latestID == ids.last)
        #expect(appendDurably(second, makeRecord()) == ids.last! + 1)
    }

    @Test("the record's JSON has camelCase keys, readable time, text payload and accepted")
    func jsonForm() throws {
        let record = makeRecord(receivedAt: Timestamp(nanosecondsSinceEpoch: 1_767_225_600_123_000_000))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as! [String: Any]
        #expect(json["receivedAt"] as? String == "2026-01-01T00:00:00.123Z")
        #expect(json["payload"] as? String == #"{"aps":{"alert":"hello"}}"#)
        #expect(json["accepted"] as? Bool == true)
        #expect(json["apnsId"] as? String == record.apnsID)
        #expect(json["payloadBase64"] == nil)
    }
}
