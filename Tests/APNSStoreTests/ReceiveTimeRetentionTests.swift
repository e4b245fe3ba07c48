@testable import APNSCore
@testable import APNSStore
import DeliveryFixtures
import Foundation
import Testing

/// The file has no `received_at` index: `since`/`until` are SQL comparisons, and age retention drops a block once
/// its newest row is older than the limit. Rows are appended in receive order, so a block's last row is usually its
/// newest; a clock that stepped back makes it not so, and the writer checks instead of assuming.
@Suite struct ReceiveTimeRetentionTests {
    static let start = Timestamp(secondsSinceEpoch: 1_767_225_600)

    static func at(_ seconds: Double) -> Timestamp { start.adding(seconds: seconds) }

    static func ids(_ reader: any DeliveryReader, _ filter: DeliveryFilter = DeliveryFilter(),
                    order: DeliveryQuery.Order = .oldestFirst) throws -> [Int64] {
        try reader.deliveries(DeliveryQuery(filter: filter, limit: 1_000, order: order)).map(\.id)
    }

    /// The in-memory ring drops the row received before the cutoff at once; SQLite keeps it while its block holds a
    /// newer row, and drops the block once that one expires too.
    @Test("the age limit drops a row received before the cutoff after a newer one (the clock stepped back)",
          arguments: StoreKind.allCases)
    func receivedOutOfOrder(kind: StoreKind) throws {
        let clock = TestClock(Self.start)
        let store = try kind.make(retention: RetentionPolicy(maxCount: 1_000, maxAge: .seconds(60)), clock: clock)
        defer { store.close() }
        let first = appendDurably(store, makeRecord(receivedAt: Self.at(30)))
        let second = appendDurably(store, makeRecord(receivedAt: Self.at(0)))  // the clock stepped back
        let third = appendDurably(store, makeRecord(receivedAt: Self.at(30)))
        clock.set(Self.at(61))  // cutoff: 1 s
        let fourth = appendDurably(store, makeRecord(receivedAt: Self.at(61)))
        #expect(try Self.ids(store) == (kind == .memory ? [first, third, fourth] : [first, second, third, fourth]))
        clock.set(Self.at(91))  // cutoff: 31 s
        let fifth = appendDurably(store, makeRecord(receivedAt: Self.at(91)))
        #expect(try Self.ids(store) == [fourth, fifth])
    }

    /// A block whose last row is older than the cutoff but an earlier row is not (the clock stepped back within the
    /// block): the block stays, with every row in it, until its newest row expires.
    @Test func aBlockWhoseLastRowExpiredStaysWhileAnEarlierRowIsNewer() throws {
        let clock = TestClock(Self.at(50))
        let store = try StoreKind.sqlite.make(
            retention: RetentionPolicy(maxCount: 1_000, maxAge: .seconds(60)), clock: clock)
        defer { store.close() }
        let newer = appendDurably(store, makeRecord(receivedAt: Self.at(50)))
        let older = appendDurably(store, makeRecord(receivedAt: Self.at(0)))  // the clock stepped back
        clock.set(Self.at(70))  // cutoff: 10 s; the block's last row (0 s) is older, its first (50 s) is not
        let fresh = appendDurably(store, makeRecord(receivedAt: Self.at(70)))
        #expect(try Self.ids(store) == [newer, older, fresh])
        clock.set(Self.at(111))  // cutoff: 51 s
        let last = appendDurably(store, makeRecord(receivedAt: Self.at(111)))
        #expect(try Self.ids(store) == [fresh, last])
    }

    @Test("the age limit applies to the rows a reopened store finds")
    func afterReopening() throws {
        let directory = try TemporaryDirectory.make()
        let retention = RetentionPolicy(maxCount: 1_000, maxAge: .seconds(60))
        let clock = TestClock(Self.start)
        let first = try SQLiteDeliveryStore(directory: directory.url.path, retention: retention, clock: clock)
        _ = appendDurably(first, makeRecord(receivedAt: Self.at(20)))
        let kept = appendDurably(first, makeRecord(receivedAt: Self.at(40)))  // a block of its own (3.75 s later)
        let older = appendDurably(first, makeRecord(receivedAt: Self.at(10)))  // in it: the clock stepped back
        first.close()
        clock.set(Self.at(81))  // cutoff: 21 s
        let store = try SQLiteDeliveryStore(directory: directory.url.path, retention: retention, clock: clock)
        defer { store.close() }
        let fresh = appendDurably(store, makeRecord(receivedAt: Self.at(81)))
        #expect(try Self.ids(store) == [kept, older, fresh])
    }

    @Test("since and until read the same rows from the live store, an archive and the in-memory store")
    func sinceAndUntil() throws {
        let times: [Double] = [0, 10, 5, 20, 15, 30]  // not ascending: the clock stepped back twice
        let directory = try TemporaryDirectory.make()
        let clock = TestClock(Self.at(40))  // the default age limit (24 h) keeps every row
        let store = try SQLiteDeliveryStore(directory: directory.url.path, clock: clock)
        let memory = InMemoryDeliveryStore(clock: clock)
        defer { memory.close() }
        for time in times {
            _ = appendDurably(store, makeRecord(receivedAt: Self.at(time)))
            _ = appendDurably(memory, makeRecord(receivedAt: Self.at(time)))
        }
        let filters: [(since: Double?, until: Double?)] = [
            (5, nil), (nil, 15), (10, 20), (16, nil), (nil, 0), (31, nil), (0, 31), (21, 29), (nil, nil),
        ]
        func expected(_ since: Double?, _ until: Double?) -> [Int64] {
            times.enumerated().filter { _, time in
                (since.map { time >= $0 } ?? true) && (until.map { time < $0 } ?? true)
            }.map { Int64($0.offset + 1) }
        }
        func check(_ reader: any DeliveryReader) throws {
            for (since, until) in filters {
                let filter = DeliveryFilter(since: since.map(Self.at), until: until.map(Self.at))
                let want = expected(since, until)
                let label = "since \(String(describing: since)) until \(String(describing: until))"
                #expect(try Self.ids(reader, filter) == want, Comment(rawValue: label))
                #expect(try Self.ids(reader, filter, order: .newestFirst) == want.reversed())
            }
        }
        try check(store)
        try check(memory)
        store.close()
        try check(try SQLiteDeliveryArchive(directory: directory.url.path))
    }
}
