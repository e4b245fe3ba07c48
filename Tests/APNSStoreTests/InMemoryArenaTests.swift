import APNSCore
import DeliveryFixtures
import Foundation
import Testing

@testable import APNSStore

/// The in-memory store packs records outside its lock, by one packer per appending thread over shared pools, and
/// keeps their bytes in chunks it frees as retention drops the oldest: every record reads back as appended,
/// whatever thread appended it, however many chunks it took, and across resets of the pools.
@Suite struct InMemoryArenaTests {
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
            liveActivity: LiveActivityOutcome(code: "applied", explanation: "applied: content-state updated"),
            latencyMicroseconds: Int64(number))
    }

    @Test func recordsSpanningManyChunksReadBackAndDroppedChunksAreFreed() throws {
        let store = InMemoryDeliveryStore(retention: RetentionPolicy(maxCount: 2000, maxAge: nil))
        var appended: [DeliveryRecord] = []
        for number in 1...6000 {
            let record = Self.record(number, payload: number % 97 == 0 ? 300_000 : 120)  // some bigger than a chunk
            store.append(record) { _ in }
            appended.append(record.withID(Int64(number)))
        }
        let kept = try store.deliveries(DeliveryQuery(limit: 10_000, order: .oldestFirst))
        #expect(kept == Array(appended.suffix(2000)))
        #expect(try store.delivery(id: 4001) == appended[4000])
        #expect(try store.delivery(id: 4000) == nil)
        #expect(try store.delivery(apnsID: appended[5999].apnsID.lowercased()) == appended[5999])
        // The kept records' chunks only (each big record has its own, and the next record starts another): about a
        // third of what the 6,000 records took.
        #expect(store.arenaChunkCount <= 2 * (2000 / 97 + 1) + 4)
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

    @Test func recordsAfterAResetReadBackWithTheNewPools() throws {
        let store = InMemoryDeliveryStore()
        store.append(Self.record(1)) { _ in }
        #expect(try store.reset() == 1)
        let second = Self.record(2)
        let id = store.append(second) { _ in }
        #expect(try store.delivery(id: id) == second.withID(id))
        #expect(try store.deliveries(DeliveryQuery(limit: 10)) == [second.withID(id)])
    }

    @Test func aRecordWhoseValuePoolIsFullIsKeptWhole() throws {
        let store = InMemoryDeliveryStore(
            retention: RetentionPolicy(maxCount: 3, maxAge: nil), clock: SystemClock(),
            pools: DeliveryInternPools(tls: InternPool(capacity: 0)))
        let records = (1...5).map { Self.record($0) }
        for record in records { store.append(record) { _ in } }
        let expected = (3...5).map { records[$0 - 1].withID(Int64($0)) }
        #expect(try store.deliveries(DeliveryQuery(limit: 10, order: .oldestFirst)) == expected)
        #expect(try store.delivery(apnsID: records[3].apnsID) == expected[1])
        #expect(try store.delivery(id: 2) == nil)
    }

    @Test func wholeRecordsGoWithTheirRecordsByCountAndByAge() throws {
        let clock = TestClock(Timestamp(nanosecondsSinceEpoch: Self.start))
        let store = InMemoryDeliveryStore(
            retention: RetentionPolicy(maxCount: 4, maxAge: .seconds(60)), clock: clock,
            pools: DeliveryInternPools(tls: InternPool(capacity: 0)))
        var records: [DeliveryRecord] = []
        func append(_ number: Int) {
            var record = Self.record(number)
            record.receivedAt = clock.now()
            records.append(record)
            store.append(record) { _ in }
        }
        for number in 1...6 { append(number) }
        #expect(store.wholeRecordCount == 4, "the two dropped by count went with their records")
        clock.advance(seconds: 30)
        append(7)
        clock.advance(seconds: 31)
        append(8)
        let expected = [7, 8].map { records[$0 - 1].withID(Int64($0)) }
        #expect(try store.deliveries(DeliveryQuery(limit: 10, order: .oldestFirst)) == expected)
        #expect(store.wholeRecordCount == 2, "the ones past max-age went with their records")
        #expect(try store.delivery(apnsID: records[5].apnsID) == nil)
        #expect(try store.delivery(apnsID: records[6].apnsID) == expected[0])
    }

    @Test func aPayloadRepeatedByTheNextRecordIsPooledAndEveryRecordReadsBack() throws {
        var packer = DeliveryPacker(pools: DeliveryInternPools(payloads: InternPool(capacity: 2)))
        let payloads = ["A", "A", "A", "B", "A", "B", "B", "C", "C", "C"].map { Array(String(repeating: $0, count: 50).utf8) }
        var packedCounts: [Int] = []
        var packed: [([UInt8], DeliveryRecord)] = []
        for (index, payload) in payloads.enumerated() {
            var record = Self.record(index)
            record.payload = payload
            let bytes = try #require(packer.pack(record) as [UInt8]?)
            packed.append((bytes, record))
            packedCounts.append(bytes.count)
        }
        for (index, (bytes, record)) in packed.enumerated() {
            let back = PackedDeliveryRecord.unpack(bytes, id: 1, receivedAt: record.receivedAt, pools: packer.pools)
            #expect(back == record.withID(1), "record \(index)")
        }
        // Pooled from the second A on, and the second B; C finds the pool (capacity 2) full and stays written out.
        let pooled = packedCounts.map { $0 < packedCounts[0] - 40 }
        #expect(pooled == [false, true, true, false, false, false, true, false, false, false])
        #expect(packer.pools.payloads.count == 2)
    }

    @Test(arguments: [
        ("lower-case token", "0123456789abcdef0123456789abcdef", true),
        ("upper-case token", "0123456789ABCDEF0123456789ABCDEF", true),
        ("mixed case", "0123456789abcdefABCDEF0123456789", false),
        ("not hex", "0123456789abcdeg0123456789abcdef", false),
        ("non-ASCII", "0123456789abcdé0123456789abcdef", false),
    ])
    func hexTokensPackAsTwoDigitsAByteOnlyWhenOfOneCase(_ name: String, _ token: String, _ packsAsHex: Bool) throws {
        var record = Self.record(1)
        record.deviceToken = token
        var packer = DeliveryPacker()
        let packed = packer.pack(record)
        let bytes = try #require(packed)
        let back = PackedDeliveryRecord.unpack(bytes, id: 1, receivedAt: record.receivedAt, pools: packer.pools)
        #expect(back == record.withID(1), "\(name)")
        var plain = record
        plain.deviceToken = nil
        var plainPacker = DeliveryPacker()  // a packer of its own: the repeated payload would be pooled
        let packedPlain = plainPacker.pack(plain)
        let withoutToken = try #require(packedPlain)
        let tokenBytes = bytes.count - withoutToken.count
        #expect((tokenBytes < token.utf8.count) == packsAsHex, "\(name): \(tokenBytes) bytes")
    }
}
