@testable import APNSCore
import DeliveryFixtures
import Foundation
import Testing

@testable import APNSStore

/// The SQLite store finds records by apns-id and token through its in-memory index (`SQLiteLookupIndex`), not
/// SQLite indexes: the index must name exactly the rows the file holds, across reopening, retention and reset.
@Suite struct LookupIndexTests {
    /// One step on an index, and what it must answer after it.
    struct Step: CustomTestStringConvertible, Sendable {
        let name: String
        let apply: @Sendable (SQLiteLookupIndex) -> Void
        let tokenRows: [Int64: [Int64]]  // token key → rows, oldest first
        let newest: [Int64: Int64?]  // apns key → newest row
        let count: Int
        var testDescription: String { name }
    }

    static let steps: [Step] = [
        Step(name: "rows are added in id order", apply: { index in
            index.add([(1, 100, 7), (2, 101, 8), (3, 102, 7), (4, 100, nil)])
        }, tokenRows: [7: [1, 3], 8: [2]], newest: [100: 4, 101: 2, 102: 3, 999: nil], count: 4),
        Step(name: "retention drops the oldest rows", apply: { index in index.dropRows(below: 3) },
             tokenRows: [7: [3], 8: []], newest: [100: 4, 101: nil, 102: 3], count: 2),
        Step(name: "dropping below a bound already passed changes nothing", apply: { index in index.dropRows(below: 2) },
             tokenRows: [7: [3], 8: []], newest: [100: 4, 102: 3], count: 2),
        Step(name: "a reset forgets every row", apply: { index in index.removeAll() },
             tokenRows: [7: []], newest: [100: nil, 102: nil], count: 0),
        Step(name: "rows after a reset are indexed", apply: { index in index.add([(9, 100, 7)]) },
             tokenRows: [7: [9]], newest: [100: 9], count: 1),
    ]

    @Test func anIndexAnswersAfterEachStep() {
        let index = SQLiteLookupIndex()
        index.markReady()
        for step in Self.steps {
            step.apply(index)
            for (token, rows) in step.tokenRows {
                #expect(index.rows(tokenKey: token) == rows, "\(step.name): token \(token)")
            }
            for (apnsKey, row) in step.newest {
                #expect(index.newestRow(apnsKey: apnsKey) == row, "\(step.name): apns key \(apnsKey)")
            }
            #expect(index.count == step.count, "\(step.name)")
        }
    }

    /// Long runs for one token: dropping from the front stays correct across the compactions of its storage.
    @Test func oneTokensRowsStayInOrderAsTheOldestAreDropped() {
        let index = SQLiteLookupIndex()
        index.markReady()
        for id in Int64(1)...5_000 { index.add([(id, id, 42)]) }
        for bound in stride(from: Int64(100), through: 4_900, by: 700) {
            index.dropRows(below: bound)
            #expect(index.rows(tokenKey: 42) == Array(bound...5_000))
            #expect(index.newestRow(apnsKey: bound - 1) == nil)
            #expect(index.newestRow(apnsKey: bound) == bound)
        }
    }

    /// Many tokens interleaved, rows without a token, drops that take a token's newest row or only its older ones,
    /// and resets: after every step each token's rows are those of a plain list of the rows kept.
    @Test func interleavedTokensMatchAPlainListAcrossDropsAndResets() {
        let index = SQLiteLookupIndex()
        index.markReady()
        var kept: [(id: Int64, token: Int64?)] = []
        var nextID: Int64 = 1
        var seed: UInt64 = 0x9e37_79b9_7f4a_7c15
        func next(_ bound: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 33) % bound
        }
        for step in 0..<400 {
            switch next(10) {
            case 0..<6:
                var batch: [(id: Int64, apnsKey: Int64, tokenKey: Int64?)] = []
                for _ in 0..<(1 + next(5)) {
                    let token: Int64? = next(7) == 0 ? nil : Int64(next(6))
                    batch.append((nextID, nextID, token))
                    kept.append((nextID, token))
                    nextID += 1 + Int64(next(2))  // ids may skip (a rolled-back batch)
                }
                index.add(batch)
            case 6..<9:
                guard let first = kept.first else { continue }
                let bound = first.id + Int64(next(6))
                index.dropRows(below: bound)
                kept.removeAll { $0.id < bound }
            default:
                if next(4) == 0 {
                    index.removeAll()
                    kept.removeAll()
                }
            }
            for token in Int64(0)..<6 {
                #expect(index.rows(tokenKey: token) == kept.filter { $0.token == token }.map(\.id), "step \(step)")
            }
            #expect(index.count == kept.count, "step \(step)")
            if let last = kept.last { #expect(index.newestRow(apnsKey: last.id) == last.id) }
        }
    }

    /// Keys stay in two generations that go whole (`dropRows`): apns-ids reused across many drops answer their
    /// newest kept row, and none once all of theirs are dropped, however many generations have gone.
    @Test func reusedAPNsIDsAnswerTheirNewestKeptRowAcrossGenerations() {
        let index = SQLiteLookupIndex()
        index.markReady()
        var kept: [(id: Int64, key: Int64)] = []
        var nextID: Int64 = 1
        for step in 0..<300 {
            var batch: [(id: Int64, apnsKey: Int64, tokenKey: Int64?)] = []
            for _ in 0..<(1 + step % 4) {
                let key = nextID * 7 % 23  // 23 keys, reused in a shifting order
                batch.append((nextID, key, key % 3))
                kept.append((nextID, key))
                nextID += 1
            }
            index.add(batch)
            if step % 3 == 0, kept.count > 10 {
                let bound = kept[kept.count - 10 + step % 5].id  // a window of 5…9 rows, sometimes none
                index.dropRows(below: step % 50 == 0 ? nextID : bound)
                kept.removeAll { $0.id < (step % 50 == 0 ? nextID : bound) }
            }
            for key in Int64(0)..<23 {
                #expect(index.newestRow(apnsKey: key) == kept.last { $0.key == key }?.id, "step \(step), key \(key)")
            }
            for token in Int64(0)..<3 {
                #expect(index.rows(tokenKey: token) == kept.filter { $0.key % 3 == token }.map(\.id), "step \(step)")
            }
        }
    }

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
        #expect(second.indexedRowCount == 30)
    }

    @Test func retentionAndResetKeepTheIndexToTheRowsTheFileHolds() throws {
        let store = try SQLiteDeliveryStore(
            path: TemporaryDirectory.make().path(SQLiteDeliveryStore.fileName),
            retention: RetentionPolicy(maxCount: 50, maxAge: nil))
        defer { store.close() }
        let records = (0..<120).map { index in makeRecord(token: "tok\(index % 4)") }
        let ids = records.map { appendDurably(store, $0) }
        #expect(store.indexedRowCount == 50)
        #expect(try store.delivery(apnsID: records[0].apnsID) == nil)
        #expect(try store.delivery(apnsID: records[119].apnsID)?.id == ids[119])
        let kept = try store.deliveries(DeliveryQuery(filter: DeliveryFilter(token: "tok2"), limit: 1_000)).map(\.id)
        #expect(kept == zip(records, ids).suffix(50).filter { $0.0.deviceToken == "tok2" }.map(\.1).reversed())

        #expect(try store.reset() == 50)
        #expect(store.indexedRowCount == 0)
        #expect(try store.delivery(apnsID: records[119].apnsID) == nil)
        let after = appendDurably(store, makeRecord(token: "tok2", apnsID: records[119].apnsID))
        #expect(try store.delivery(apnsID: records[119].apnsID)?.id == after)
    }

    /// More candidate rows than one statement reads: order, limit and the id bounds hold across chunks.
    @Test(arguments: [DeliveryQuery.Order.newestFirst, .oldestFirst])
    func aTokenWithManyRowsIsReadInChunks(order: DeliveryQuery.Order) throws {
        let store = try SQLiteDeliveryStore(path: TemporaryDirectory.make().path(SQLiteDeliveryStore.fileName))
        defer { store.close() }
        var ids: [Int64] = []
        for index in 0..<700 { ids.append(store.append(makeRecord(token: index % 10 == 0 ? "other" : "busy")) { _ in }) }
        store.flush()
        let busy = zip(0..<700, ids).filter { $0.0 % 10 != 0 }.map(\.1)
        let limit = SQLiteDeliveryReader.candidateChunk + 50
        let query = DeliveryQuery(
            filter: DeliveryFilter(token: "busy"), afterID: ids[20], beforeID: ids[690], limit: limit, order: order)
        let bounded = busy.filter { $0 > ids[20] && $0 < ids[690] }
        let expected = order == .newestFirst ? Array(bounded.reversed().prefix(limit)) : Array(bounded.prefix(limit))
        #expect(try store.deliveries(query).map(\.id) == expected)
        let failed = DeliveryQuery(filter: DeliveryFilter(token: "busy", status: 400), limit: 10, order: order)
        #expect(try store.deliveries(failed).isEmpty)
    }

    /// Two apns-ids whose 64-bit keys collide: the newer row hides the older from the index, and the lookup falls
    /// back to SQL rather than answer "not found".
    @Test func aKeyCollisionStillFindsTheOlderRecord() throws {
        let directory = try TemporaryDirectory.make()
        let store = try SQLiteDeliveryStore(directory: directory.url.path)
        let target = makeRecord(apnsID: "6e1c1b9a-0000-4000-8000-00000000000a")
        let targetID = appendDurably(store, target)
        store.close()
        let connection = try SQLiteConnection(path: directory.path(SQLiteDeliveryStore.fileName), mode: .readWrite)
        let impostor = makeRecord(apnsID: "6e1c1b9a-0000-4000-8000-00000000000b")
        var row = EncodedDelivery(impostor, id: targetID + 1).row.values
        row[row.count - 2] = SQLiteLookupKey.apnsID(target.apnsID)  // forge the collision
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
