@testable import APNSCore
@testable import APNSStore
import DeliveryFixtures
import Foundation
import HTTPContract
import Testing

/// Schema version 6 (`SQLiteSchema`): rows live in block tables, count retention hides the rows it retired until
/// their whole block is dropped. With tiny blocks (4 ids) and a tiny limit (10), every read must answer what the
/// in-memory store answers for the same pushes, from the store, from an archive, and after reopening.
@Suite("Block tables: retention hides retired rows and drops whole blocks")
struct BlockRetentionTests {
    static let maxCount = 10
    static let blockSize: Int64 = 4
    static let start = Timestamp(secondsSinceEpoch: 1_767_225_600)
    /// Not hex: a free-text search for one must not match the random hex apns-unique-ids `makeRecord` gives.
    static let tokens = ["xa00", "yb11", "zc22"]

    /// The `index`th push: tokens and statuses cycle, one second apart, every fifth reuses an apns-id.
    static func record(_ index: Int) -> DeliveryRecord {
        let rejected = index % 4 == 3
        return makeRecord(
            token: tokens[index % tokens.count], status: rejected ? 400 : 200, reason: rejected ? "BadTopic" : nil,
            apnsID: index % 5 == 0
                ? "0000000a-0000-4000-8000-00000000000a" : "0000000b-0000-4000-8000-\(index + 100_000_000_000)",
            receivedAt: start.adding(seconds: Double(index)))
    }

    static let queries: [DeliveryQuery] = {
        let filters = [
            DeliveryFilter.all, DeliveryFilter(token: "yb11"), DeliveryFilter(accepted: false),
            DeliveryFilter(since: start.adding(seconds: 12)), DeliveryFilter(until: start.adding(seconds: 20)),
            DeliveryFilter(token: "xa00", since: start.adding(seconds: 5), until: start.adding(seconds: 25)),
            DeliveryFilter(text: "zc22"),
        ]
        var queries: [DeliveryQuery] = []
        for filter in filters {
            for order in [DeliveryQuery.Order.newestFirst, .oldestFirst] {
                for limit in [1, 3, 100] {
                    queries.append(DeliveryQuery(filter: filter, limit: limit, order: order))
                }
                queries.append(DeliveryQuery(filter: filter, afterID: 6, beforeID: 21, limit: 5, order: order))
            }
        }
        return queries
    }()

    /// Every answer a reader gives for the pushes so far, as text to compare.
    static func answers<Reader: DeliveryReader>(_ reader: Reader, upTo lastIndex: Int) throws -> [String] {
        var answers = try queries.map { query in "\(query): \(try reader.deliveries(query).map(\.id))" }
        for id in Int64(0)...Int64(lastIndex + 2) {
            answers.append("id \(id): \(String(describing: try reader.delivery(id: id)?.id))")
        }
        for index in 0...lastIndex + 1 {
            let apnsID = record(index).apnsID
            answers.append("apns-id \(apnsID): \(String(describing: try reader.delivery(apnsID: apnsID)?.id))")
        }
        for after in [0, 9, 15, 40] as [Int64] {
            for filter in [DeliveryFilter.all, DeliveryFilter(token: "zc22")] {
                let next = try reader.waitForNext(filter, after: after, timeout: .zero)
                answers.append("next \(filter) after \(after): \(String(describing: next?.id))")
            }
        }
        answers.append("newest: \(try reader.newestID())")
        return answers
    }

    static func storeAnswers(_ store: any DeliveryStore, upTo lastIndex: Int) throws -> [String] {
        try answers(store, upTo: lastIndex) + ["count: \(try store.count())"]
    }

    /// Appends pushes `range` to both stores, queued together (one group commit, crossing blocks).
    static func append(_ range: Range<Int>, to stores: [any DeliveryStore]) {
        for store in stores {
            for index in range { store.append(record(index)) { _ in } }
            store.flush()
        }
    }

    static func sqliteStore(
        _ directory: TemporaryDirectory, retention: RetentionPolicy = RetentionPolicy(maxCount: maxCount, maxAge: nil),
        clock: any WallClock = SystemClock()
    ) throws -> SQLiteDeliveryStore {
        try SQLiteDeliveryStore(
            path: directory.path(SQLiteDeliveryStore.fileName), retention: retention, clock: clock,
            blockSize: blockSize)
    }

    /// The names of the store file's schema objects of `type` ("table", "index"), sorted.
    static func schemaNames(_ directory: TemporaryDirectory, type: String) throws -> [String] {
        let check = try SQLiteConnection(path: directory.path(SQLiteDeliveryStore.fileName), mode: .readOnly)
        defer { check.close() }
        let statement = try check.prepare("SELECT name FROM sqlite_master WHERE type = ? ORDER BY name")
        try statement.bind([.text(type)])
        var names: [String] = []
        while try statement.step() { names.append(String(decoding: statement.bytes(0), as: UTF8.self)) }
        return names
    }

    /// The tables in the file (blocks and `store_meta`), shortest name first (blocks in id order).
    static func tables(_ directory: TemporaryDirectory) throws -> [String] {
        try schemaNames(directory, type: "table").sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
    }

    @Test func everyReadMatchesTheInMemoryStoreAcrossBlocksAnArchiveAndAReopen() throws {
        let directory = try TemporaryDirectory.make()
        var sqlite = try Self.sqliteStore(directory)
        let memory = InMemoryDeliveryStore(retention: RetentionPolicy(maxCount: Self.maxCount, maxAge: nil))
        defer { memory.close() }
        var appended = 0
        for total in [3, 10, 11, 18, 27] {
            Self.append(appended..<total, to: [sqlite, memory])
            appended = total
            let expected = try Self.storeAnswers(memory, upTo: total)
            #expect(try Self.storeAnswers(sqlite, upTo: total) == expected, "after \(total) pushes")
            #expect(sqlite.indexedRowCount == min(total, Self.maxCount))
            let archive = try SQLiteDeliveryArchive(directory: directory.url.path)
            #expect(try Self.answers(archive, upTo: total) == Self.answers(memory, upTo: total), "archive, \(total)")
        }
        // Ids 1…27 in blocks from 1, 5, … 25; retention keeps 18…27. A block goes when the next block starts after
        // it is wholly retired: at 25 (retention then keeps 16…25) the blocks below 13; 13 goes at 29.
        #expect(try Self.tables(directory) == [
            "store_meta", "deliveries_13", "deliveries_17", "deliveries_21", "deliveries_25",
        ])

        sqlite.close()
        sqlite = try Self.sqliteStore(directory)
        #expect(try Self.storeAnswers(sqlite, upTo: 27) == Self.storeAnswers(memory, upTo: 27), "reopened")
        Self.append(27..<31, to: [sqlite, memory])
        #expect(try Self.storeAnswers(sqlite, upTo: 31) == Self.storeAnswers(memory, upTo: 31), "reopened, appended")
        #expect(try Self.tables(directory) == [
            "store_meta", "deliveries_17", "deliveries_21", "deliveries_25", "deliveries_29",
        ])

        #expect(try sqlite.reset() == memory.reset())
        #expect(try Self.tables(directory) == ["store_meta"])
        Self.append(31..<37, to: [sqlite, memory])
        #expect(try Self.storeAnswers(sqlite, upTo: 37) == Self.storeAnswers(memory, upTo: 37), "after a reset")
        #expect(try Self.tables(directory) == ["store_meta", "deliveries_32", "deliveries_36"])
        sqlite.close()
    }

    /// Reopened with a larger count limit, the store does not show again the rows the smaller one retired (before
    /// version 6 they were deleted at once); reopened with a smaller one, it hides more. Archives agree.
    @Test func aLargerLimitOnReopenDoesNotBringRetiredRowsBack() throws {
        let directory = try TemporaryDirectory.make()
        var sqlite = try Self.sqliteStore(directory)
        Self.append(0..<27, to: [sqlite])  // max-count 10: ids 18…27 visible, 13…17 retired in blocks not dropped
        sqlite.close()
        #expect(try Self.tables(directory) == [
            "store_meta", "deliveries_13", "deliveries_17", "deliveries_21", "deliveries_25",
        ])
        let visible = Array(Int64(18)...27)
        let all = DeliveryQuery(filter: .all, limit: 100, order: .oldestFirst)

        sqlite = try Self.sqliteStore(directory, retention: RetentionPolicy(maxCount: 100, maxAge: nil))
        #expect(try sqlite.deliveries(all).map(\.id) == visible)
        #expect(try sqlite.count() == 10)
        #expect(try sqlite.delivery(id: 17) == nil)
        #expect(try SQLiteDeliveryArchive(directory: directory.url.path).deliveries(all).map(\.id) == visible)
        #expect(try Self.tables(directory) == ["store_meta", "deliveries_17", "deliveries_21", "deliveries_25"])
        sqlite.close()

        sqlite = try Self.sqliteStore(directory, retention: RetentionPolicy(maxCount: 4, maxAge: nil))
        defer { sqlite.close() }
        #expect(try sqlite.deliveries(all).map(\.id) == Array(Int64(24)...27))
        #expect(try SQLiteDeliveryArchive(directory: directory.url.path).deliveries(all).map(\.id)
            == Array(Int64(24)...27))
    }

    /// With a count limit below the block size the last block holds hidden rows; once every visible row expires,
    /// the age sweep deletes those too, so that the file's highest id does not fall to a hidden row and show them
    /// again.
    @Test func expiringEveryVisibleRowDoesNotShowTheHiddenOnes() throws {
        let directory = try TemporaryDirectory.make()
        let clock = TestClock(Self.start)
        let retention = RetentionPolicy(maxCount: 3, maxAge: .seconds(60))
        let sqlite = try Self.sqliteStore(directory, retention: retention, clock: clock)
        defer { sqlite.close() }
        let memory = InMemoryDeliveryStore(retention: retention, clock: clock)
        defer { memory.close() }
        Self.append(0..<8, to: [sqlite, memory])  // ids 1…8 in blocks from 1 and 5; 6…8 visible, 5 hidden in the last
        #expect(try Self.storeAnswers(sqlite, upTo: 8) == Self.storeAnswers(memory, upTo: 8))
        clock.advance(seconds: 100)
        sqlite.flush()  // a commit with no rows: the age sweep alone
        #expect(try sqlite.count() == 0)
        #expect(try sqlite.delivery(id: 5) == nil)
        #expect(try sqlite.deliveries(DeliveryQuery(filter: .all, limit: 100, order: .oldestFirst)).isEmpty)
        #expect(try SQLiteDeliveryArchive(directory: directory.url.path)
            .deliveries(DeliveryQuery(filter: .all, limit: 100, order: .oldestFirst)).isEmpty)
    }

    /// Age retention deletes rows in every block they are in, and drops the blocks it empties (never the last).
    @Test func ageRetentionDeletesAcrossBlocksAndDropsTheEmptiedOnes() throws {
        let directory = try TemporaryDirectory.make()
        let clock = TestClock(Self.start)
        let retention = RetentionPolicy(maxCount: 1_000, maxAge: .seconds(60))
        let sqlite = try Self.sqliteStore(directory, retention: retention, clock: clock)
        defer { sqlite.close() }
        let memory = InMemoryDeliveryStore(retention: retention, clock: clock)
        defer { memory.close() }
        Self.append(0..<9, to: [sqlite, memory])
        clock.advance(seconds: 65)  // received 0…8 s after the start: ids 1…5 (0…4 s) are now older than 60 s
        for store in [sqlite, memory] as [any DeliveryStore] {
            appendDurably(store, makeRecord(token: "xa00", receivedAt: clock.now()))
        }
        #expect(try Self.storeAnswers(sqlite, upTo: 9) == Self.storeAnswers(memory, upTo: 9))
        #expect(try sqlite.count() == 5)
        #expect(try Self.tables(directory) == ["store_meta", "deliveries_5", "deliveries_9"])
    }
}
