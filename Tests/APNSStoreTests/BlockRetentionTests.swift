@testable import APNSCore
@testable import APNSStore
import DeliveryFixtures
import Foundation
import HTTPContract
import Testing

/// Rows live in block tables, and retention drops whole blocks, never single rows (`SQLiteDeliveryWriter`): the
/// file keeps between `maxCount` and `maxCount` + one block of the newest rows, and every read shows every row in
/// it. With tiny blocks (4 ids) and a tiny limit (10), every read answers what the in-memory store answers when it
/// holds the same rows (an exact ring given the same pushes and a limit of the rows the file kept), from the store,
/// from an archive, and after reopening.
@Suite("Block tables: retention drops whole blocks, and every row in the file shows")
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

    /// The tables in the file (the blocks), shortest name first (blocks in id order).
    static func tables(_ directory: TemporaryDirectory) throws -> [String] {
        try schemaNames(directory, type: "table").sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
    }

    /// What was done to a store, in order: pushes (by index) and resets.
    enum Step {
        case pushes(Range<Int>)
        case reset
    }

    /// An in-memory store given `steps`, keeping the newest `count` rows: what a reader of a file holding those
    /// rows must answer.
    static func reference(_ steps: [Step], keeping count: Int) throws -> InMemoryDeliveryStore {
        let memory = InMemoryDeliveryStore(retention: RetentionPolicy(maxCount: max(count, 1), maxAge: nil))
        for step in steps {
            switch step {
            case .pushes(let range): append(range, to: [memory])
            case .reset: try memory.reset()
            }
        }
        if count == 0 { try memory.reset() }
        return memory
    }

    /// The ids the store holds, oldest first.
    static func ids(_ reader: any DeliveryReader) throws -> [Int64] {
        try reader.deliveries(DeliveryQuery(filter: .all, limit: 1_000, order: .oldestFirst)).map(\.id)
    }

    /// The store keeps the newest rows, between `maxCount` (or all, when fewer were pushed since the last reset)
    /// and `maxCount` + one block less one, and answers every read as the in-memory store holding the same rows.
    static func check(
        _ sqlite: SQLiteDeliveryStore, _ directory: TemporaryDirectory, after steps: [Step], maxCount: Int = maxCount,
        _ label: String
    ) throws {
        var pushed: [Int] = []
        for step in steps {
            switch step {
            case .pushes(let range): pushed += range
            case .reset: pushed = []
            }
        }
        let kept = try ids(sqlite)
        #expect(kept.count >= min(pushed.count, maxCount) && kept.count <= maxCount + Int(blockSize) - 1, "\(label)")
        let memory = try reference(steps, keeping: kept.count)
        defer { memory.close() }
        #expect(try ids(memory) == kept, "\(label): the newest rows")
        let last = pushed.last ?? 0
        #expect(try storeAnswers(sqlite, upTo: last) == storeAnswers(memory, upTo: last), "\(label)")
        let archive = try SQLiteDeliveryArchive(directory: directory.url.path)
        #expect(try answers(archive, upTo: last) == answers(memory, upTo: last), "\(label): archive")
    }

    @Test func everyReadShowsTheRowsTheFileKeepsAcrossBlocksAnArchiveAndAReopen() throws {
        let directory = try TemporaryDirectory.make()
        var sqlite = try Self.sqliteStore(directory)
        var steps: [Step] = []
        var appended = 0
        for total in [3, 10, 11, 18, 27] {
            Self.append(appended..<total, to: [sqlite])
            steps.append(.pushes(appended..<total))
            appended = total
            try Self.check(sqlite, directory, after: steps, "after \(total) pushes")
        }
        // Ids 1…27 in blocks of 4 from 1, 5, … 25: the oldest block goes once the others hold 10 ids.
        #expect(try Self.tables(directory) == ["deliveries_17", "deliveries_21", "deliveries_25"])
        #expect(try Self.ids(sqlite) == Array(Int64(17)...27))

        sqlite.close()
        sqlite = try Self.sqliteStore(directory)
        try Self.check(sqlite, directory, after: steps, "reopened")
        Self.append(27..<31, to: [sqlite])
        steps.append(.pushes(27..<31))
        try Self.check(sqlite, directory, after: steps, "reopened, appended")

        let held = try Self.ids(sqlite).count
        #expect(try sqlite.reset() == held)
        #expect(try Self.tables(directory).isEmpty)
        steps.append(.reset)
        Self.append(31..<37, to: [sqlite])
        steps.append(.pushes(31..<37))
        try Self.check(sqlite, directory, after: steps, "after a reset")
        #expect(try Self.tables(directory) == ["deliveries_32", "deliveries_36"])
        sqlite.close()
    }

    /// Reopened with a smaller count limit, the store drops at once the blocks it retires; with a larger one, it
    /// keeps every row the file holds. An archive shows what the store shows.
    @Test func reopeningWithAnotherLimitKeepsTheNewestRowsWithinItsBounds() throws {
        let directory = try TemporaryDirectory.make()
        var sqlite = try Self.sqliteStore(directory)
        Self.append(0..<27, to: [sqlite])
        sqlite.close()
        let all = DeliveryQuery(filter: .all, limit: 100, order: .oldestFirst)
        let held = Array(Int64(17)...27)

        sqlite = try Self.sqliteStore(directory, retention: RetentionPolicy(maxCount: 100, maxAge: nil))
        #expect(try Self.ids(sqlite) == held)
        #expect(try sqlite.count() == held.count)
        #expect(try SQLiteDeliveryArchive(directory: directory.url.path).deliveries(all).map(\.id) == held)
        sqlite.close()

        sqlite = try Self.sqliteStore(directory, retention: RetentionPolicy(maxCount: 4, maxAge: nil))
        defer { sqlite.close() }
        #expect(try Self.ids(sqlite) == Array(Int64(21)...27))  // blocks from 21 and 25: at least 4, at most 4 + 3
        #expect(try SQLiteDeliveryArchive(directory: directory.url.path).deliveries(all).map(\.id)
            == Array(Int64(21)...27))
    }

    /// Age retention drops the last block too: once every row is older than the age limit, no row shows, in the
    /// store or an archive.
    @Test func onceEveryRowExpiresNoneShows() throws {
        let directory = try TemporaryDirectory.make()
        let clock = TestClock(Self.start)
        let retention = RetentionPolicy(maxCount: 3, maxAge: .seconds(60))
        let sqlite = try Self.sqliteStore(directory, retention: retention, clock: clock)
        defer { sqlite.close() }
        Self.append(0..<8, to: [sqlite])
        #expect(try sqlite.count() >= 3)
        clock.advance(seconds: 100)
        sqlite.flush()  // a commit with no rows: the age sweep alone
        #expect(try sqlite.count() == 0)
        #expect(try Self.tables(directory).isEmpty)
        #expect(try sqlite.delivery(id: 8) == nil)
        #expect(try Self.ids(sqlite).isEmpty)
        #expect(try Self.ids(SQLiteDeliveryArchive(directory: directory.url.path)).isEmpty)
        let next = appendDurably(sqlite, makeRecord(token: "xa00", receivedAt: clock.now()))
        #expect(try Self.ids(sqlite) == [next])
    }

    /// Age retention drops whole blocks, oldest first: a block goes once its newest row is older than the limit, so
    /// a row older than the limit stays while its block holds a newer one (the in-memory store drops it at once).
    @Test func ageRetentionDropsABlockOnceItsNewestRowExpires() throws {
        let directory = try TemporaryDirectory.make()
        let clock = TestClock(Self.start)
        let retention = RetentionPolicy(maxCount: 1_000, maxAge: .seconds(60))
        let sqlite = try Self.sqliteStore(directory, retention: retention, clock: clock)
        defer { sqlite.close() }
        let memory = InMemoryDeliveryStore(retention: retention, clock: clock)
        defer { memory.close() }
        Self.append(0..<9, to: [sqlite, memory])  // received 0…8 s after the start: blocks from ids 1, 5 and 9
        clock.advance(seconds: 65)  // ids 1…5 (0…4 s) are now older than 60 s
        for store in [sqlite, memory] as [any DeliveryStore] {
            appendDurably(store, makeRecord(token: "xa00", receivedAt: clock.now()))
        }
        #expect(try Self.ids(sqlite) == Array(Int64(5)...10))  // id 5 (4 s) stays with id 8 (7 s)
        #expect(try Self.ids(memory) == Array(Int64(6)...10))
        #expect(try Self.tables(directory) == ["deliveries_5", "deliveries_9", "deliveries_10"])
    }

    /// A slow sender: a new block starts once a row arrives a sixteenth of the age limit after the block's first,
    /// so every row stays at least the age limit and at most a sixteenth longer (at the sweep of a commit).
    @Test func aRowOutlivesTheAgeLimitByAtMostASixteenthOfIt() throws {
        let directory = try TemporaryDirectory.make()
        let clock = TestClock(Self.start)
        let maxAge = 160.0
        let retention = RetentionPolicy(maxCount: 1_000, maxAge: .seconds(maxAge))
        let sqlite = try SQLiteDeliveryStore(
            path: directory.path(SQLiteDeliveryStore.fileName), retention: retention, clock: clock, blockSize: 1_000)
        defer { sqlite.close() }
        var received: [Int64: Double] = [:]
        for second in stride(from: 0.0, through: 600, by: 3) {
            clock.set(Self.start.adding(seconds: second))
            received[appendDurably(sqlite, makeRecord(receivedAt: clock.now()))] = second
            let now = second
            let kept = Set(try Self.ids(sqlite))
            for (id, time) in received {
                if now - time < maxAge { #expect(kept.contains(id), "at \(now) s: received at \(time) s") }
                if now - time >= maxAge * 17 / 16 + 3 { #expect(!kept.contains(id), "at \(now) s: received at \(time) s") }
            }
        }
    }
}
