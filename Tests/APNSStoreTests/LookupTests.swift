@testable import APNSCore
import DeliveryFixtures
import Foundation
import Testing

@testable import APNSStore

/// The SQLite store finds records by apns-id and token by scanning the key columns of its blocks, newest first
/// (`SQLiteDeliveryReader`): no index, nothing kept in memory, so every row in the file is found, across
/// reopening, retention and reset.
@Suite struct LookupTests {
    @Test func aReopenedStoreFindsRecordsByAPNsIDAndToken() throws {
        let directory = try TemporaryDirectory.make()
        let first = try SQLiteDeliveryStore(directory: directory.url.path)
        let records = (0..<30).map { index in makeRecord(token: "tok\(index % 3)") }
        let ids = records.map { appendDurably(first, $0) }
        first.close()

        let second = try SQLiteDeliveryStore(directory: directory.url.path)
        defer { second.close() }
        for (record, id) in zip(records, ids) {
            #expect(try second.delivery(apnsID: record.apnsID.uppercased())?.id == id)
        }
        let tok1 = try second.deliveries(DeliveryQuery(filter: DeliveryFilter(token: "tok1"), limit: 100)).map(\.id)
        #expect(tok1 == zip(records, ids).filter { $0.0.deviceToken == "tok1" }.map(\.1).reversed())
    }

    /// Lookups answer exactly the rows the file holds: every kept row by apns-id and token, none that retention
    /// dropped, none after a reset.
    @Test func lookupsFindTheRowsRetentionKeepsAndNoneItDropped() throws {
        let store = try SQLiteDeliveryStore(
            path: TemporaryDirectory.make().path(SQLiteDeliveryStore.fileName),
            retention: RetentionPolicy(maxCount: 50, maxAge: nil), blockSize: 16)
        defer { store.close() }
        let records = (0..<120).map { index in makeRecord(token: "tok\(index % 4)") }
        let ids = records.map { appendDurably(store, $0) }
        let all = try store.deliveries(DeliveryQuery(filter: .all, limit: 1_000, order: .oldestFirst)).map(\.id)
        #expect(all.count >= 50 && all.count < 50 + 16 && all == Array(ids.suffix(all.count)))
        for (record, id) in zip(records, ids) {
            #expect(try store.delivery(apnsID: record.apnsID)?.id == (all.contains(id) ? id : nil))
        }
        let kept = try store.deliveries(DeliveryQuery(filter: DeliveryFilter(token: "tok2"), limit: 1_000)).map(\.id)
        #expect(kept == zip(records, ids).filter { all.contains($0.1) && $0.0.deviceToken == "tok2" }.map(\.1).reversed())

        #expect(try store.reset() == all.count)
        #expect(try store.delivery(apnsID: records[119].apnsID) == nil)
        let after = appendDurably(store, makeRecord(token: "tok2", apnsID: records[119].apnsID))
        #expect(try store.delivery(apnsID: records[119].apnsID)?.id == after)
    }

    /// A token with many rows across blocks: order, limit and the id bounds hold.
    @Test(arguments: [DeliveryQuery.Order.newestFirst, .oldestFirst])
    func aTokenWithManyRowsAcrossBlocks(order: DeliveryQuery.Order) throws {
        let store = try SQLiteDeliveryStore(
            path: TemporaryDirectory.make().path(SQLiteDeliveryStore.fileName), retention: RetentionPolicy(),
            blockSize: 64)
        defer { store.close() }
        var ids: [Int64] = []
        for index in 0..<700 { ids.append(store.append(makeRecord(token: index % 10 == 0 ? "other" : "busy")) { _ in }) }
        store.flush()
        let busy = zip(0..<700, ids).filter { $0.0 % 10 != 0 }.map(\.1)
        let limit = 300
        let query = DeliveryQuery(
            filter: DeliveryFilter(token: "busy"), afterID: ids[20], beforeID: ids[690], limit: limit, order: order)
        let bounded = busy.filter { $0 > ids[20] && $0 < ids[690] }
        let expected = order == .newestFirst ? Array(bounded.reversed().prefix(limit)) : Array(bounded.prefix(limit))
        #expect(try store.deliveries(query).map(\.id) == expected)
        let failed = DeliveryQuery(filter: DeliveryFilter(token: "busy", status: 400), limit: 10, order: order)
        #expect(try store.deliveries(failed).isEmpty)
    }

    /// Two apns-ids whose 64-bit keys collide: the key matches a row of the other apns-id first (the newer), the
    /// text does not, and the scan goes on to the older record.
    @Test func aKeyCollisionStillFindsTheOlderRecord() throws {
        let directory = try TemporaryDirectory.make()
        let store = try SQLiteDeliveryStore(directory: directory.url.path)
        let target = makeRecord(apnsID: "6e1c1b9a-0000-4000-8000-00000000000a")
        let targetID = appendDurably(store, target)
        store.close()
        let connection = try SQLiteConnection(path: directory.path(SQLiteDeliveryStore.fileName), mode: .readWrite)
        let impostor = makeRecord(apnsID: "6e1c1b9a-0000-4000-8000-00000000000b")
        var row = EncodedDelivery(impostor, id: targetID + 1).row.values
        row[SQLiteSchema.insertedColumns.firstIndex(of: "apns_key")!] = SQLiteLookupKey.apnsID(target.apnsID)  // forge the collision
        // Into the block the store created for the target, which holds the ids after it too.
        try connection.prepare(SQLiteSchema.insert(rowCount: 1, into: SQLiteSchema.blockTable(firstID: targetID))).run(row)
        connection.close()

        let reopened = try SQLiteDeliveryStore(directory: directory.url.path)
        defer { reopened.close() }
        #expect(try reopened.delivery(apnsID: target.apnsID)?.id == targetID)
    }

}

/// The writer's queue takes batches at most every batch interval under load, but never holds back a lone push, a
/// barrier (flush), a reset or a full batch.
@Suite(.timeLimit(.minutes(1))) struct WriterQueueTests {
    /// An interval no test could wait out: a batch taken here was not held back by it.
    static let hour: Duration = .seconds(3_600)

    static func append(_ queue: WriterQueue) {
        _ = queue.enqueueAppend { id in
            .append(EncodedDelivery(makeRecord(), id: id, json: []), completion: { _ in })
        }
    }

    @Test func aSenderThatWaitsForEachAnswerIsNeverHeldBack() {
        let queue = WriterQueue(lastID: 0, batchInterval: Self.hour)
        for _ in 0..<3 {
            Self.append(queue)
            #expect(queue.takeBatch()?.count == 1)
        }
    }

    @Test func aBarrierIsTakenAtOnceAfterABusyBatch() {
        let queue = WriterQueue(lastID: 0, batchInterval: Self.hour)
        Self.append(queue)
        Self.append(queue)
        #expect(queue.takeBatch()?.count == 2)  // the writer was idle: taken at once
        Self.append(queue)
        #expect(queue.enqueue(.barrier {}))
        #expect(queue.takeBatch()?.count == 2)
    }

    @Test func aFullBatchIsTakenAtOnceAfterABusyBatch() {
        let queue = WriterQueue(lastID: 0, batchInterval: Self.hour)
        Self.append(queue)
        Self.append(queue)
        #expect(queue.takeBatch()?.count == 2)
        for _ in 0..<WriterQueue.maximumBatch { Self.append(queue) }
        #expect(queue.takeBatch()?.count == WriterQueue.maximumBatch)
    }

    @Test func closingTakesWhatIsQueuedWithoutWaiting() {
        let queue = WriterQueue(lastID: 0, batchInterval: Self.hour)
        Self.append(queue)
        Self.append(queue)
        #expect(queue.takeBatch()?.count == 2)
        Self.append(queue)
        queue.close()
        #expect(queue.takeBatch()?.count == 1)
        #expect(queue.takeBatch() == nil)
    }
}
