@testable import APNSCore
@testable import APNSStore
import DeliveryFixtures
import Foundation
import Testing

/// Schema version 4 keeps no `received_at` index: the SQLite store finds the rows its age limit drops, and narrows
/// `since`/`until` reads, from the receive times it keeps in memory (`SQLiteLookupIndex`). These pin that the
/// results are exactly those of SQL's `received_at` comparisons, also when receive times do not ascend with ids.
@Suite struct ReceiveTimeRetentionTests {
    static let start = Timestamp(secondsSinceEpoch: 1_767_225_600)

    static func at(_ seconds: Double) -> Timestamp { start.adding(seconds: seconds) }

    static func ids(_ reader: any DeliveryReader, _ filter: DeliveryFilter = DeliveryFilter(),
                    order: DeliveryQuery.Order = .oldestFirst) throws -> [Int64] {
        try reader.deliveries(DeliveryQuery(filter: filter, limit: 1_000, order: order)).map(\.id)
    }

    @Test("the age limit drops a row received before the cutoff after a newer one (the clock stepped back)",
          arguments: StoreKind.allCases)
    func receivedOutOfOrder(kind: StoreKind) throws {
        let clock = TestClock(Self.start)
        let store = try kind.make(retention: RetentionPolicy(maxCount: 1_000, maxAge: .seconds(60)), clock: clock)
        defer { store.close() }
        let first = appendDurably(store, makeRecord(receivedAt: Self.at(30)))
        _ = appendDurably(store, makeRecord(receivedAt: Self.at(0)))  // the clock stepped back
        let third = appendDurably(store, makeRecord(receivedAt: Self.at(30)))
        clock.set(Self.at(61))  // cutoff: 1 s
        let fourth = appendDurably(store, makeRecord(receivedAt: Self.at(61)))
        #expect(try Self.ids(store) == [first, third, fourth])
        #expect(try store.count() == 3)
        clock.set(Self.at(91))  // cutoff: 31 s
        let fifth = appendDurably(store, makeRecord(receivedAt: Self.at(91)))
        #expect(try Self.ids(store) == [fourth, fifth])
    }

    @Test("a row received before the cutoff is dropped in the transaction that writes it")
    func expiredOnArrival() throws {
        let clock = TestClock(Self.start)
        let store = try StoreKind.sqlite.make(
            retention: RetentionPolicy(maxCount: 1_000, maxAge: .seconds(60)), clock: clock)
        defer { store.close() }
        let kept = appendDurably(store, makeRecord(receivedAt: Self.at(0)))
        clock.set(Self.at(2))  // cutoff: -58 s
        _ = appendDurably(store, makeRecord(receivedAt: Self.at(-100)))
        #expect(try Self.ids(store) == [kept])
    }

    @Test("the age limit applies to the rows a reopened store loads")
    func afterReopening() throws {
        let directory = try TemporaryDirectory.make()
        let retention = RetentionPolicy(maxCount: 1_000, maxAge: .seconds(60))
        let clock = TestClock(Self.start)
        let first = try SQLiteDeliveryStore(directory: directory.url.path, retention: retention, clock: clock)
        _ = appendDurably(first, makeRecord(receivedAt: Self.at(20)))
        let kept = appendDurably(first, makeRecord(receivedAt: Self.at(40)))
        _ = appendDurably(first, makeRecord(receivedAt: Self.at(10)))
        first.close()
        clock.set(Self.at(81))  // cutoff: 21 s
        let store = try SQLiteDeliveryStore(directory: directory.url.path, retention: retention, clock: clock)
        defer { store.close() }
        let fresh = appendDurably(store, makeRecord(receivedAt: Self.at(81)))
        #expect(try Self.ids(store) == [kept, fresh])
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
