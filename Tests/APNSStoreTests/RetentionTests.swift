import APNSCore
@testable import APNSStore
import Foundation
import Testing

@Suite("Retention keeps the store bounded")
struct RetentionTests {
    @Test("keeps only the newest max-count records", arguments: StoreKind.allCases)
    func maxCount(kind: StoreKind) throws {
        let store = try kind.make(retention: RetentionPolicy(maxCount: 50, maxAge: nil))
        defer { store.close() }
        let ids = (0..<120).map { _ in appendDurably(store, makeRecord()) }
        #expect(try store.count() == 50)
        let kept = try store.deliveries(DeliveryQuery(limit: 1_000, order: .oldestFirst)).map(\.id)
        #expect(kept == Array(ids.suffix(50)))
    }

    @Test("drops records older than max-age once time passes", arguments: StoreKind.allCases)
    func maxAge(kind: StoreKind) throws {
        let clock = TestClock()
        let store = try kind.make(retention: RetentionPolicy(maxCount: 1_000, maxAge: .seconds(60)), clock: clock)
        defer { store.close() }
        for _ in 0..<5 { appendDurably(store, makeRecord(receivedAt: clock.now())) }
        clock.advance(seconds: 61)
        let fresh = appendDurably(store, makeRecord(receivedAt: clock.now()))
        #expect(try store.deliveries(DeliveryQuery(limit: 100)).map(\.id) == [fresh])
    }

    @Test("the SQLite file stops growing under sustained load once retention is reached")
    func diskFlat() throws {
        let directory = try TemporaryDirectory.make()
        let store = try SQLiteDeliveryStore(
            directory: directory.url.path, retention: RetentionPolicy(maxCount: 2_000, maxAge: nil))
        defer { store.close() }
        func load(_ count: Int) {
            for index in 0..<count { store.append(makeRecord(token: "t\(index)")) {} }
            store.flush()
        }
        func size(_ name: String) throws -> Int {
            let path = directory.path(name)
            guard FileManager.default.fileExists(atPath: path) else { return 0 }
            return (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
        /// The database's logical size in pages, WAL content included: unlike the main file's size it does not
        /// depend on when SQLite happened to checkpoint (which varies with machine load).
        func pages() throws -> Int64 {
            let reader = try SQLiteConnection(path: directory.path(SQLiteDeliveryStore.fileName), mode: .readOnly)
            defer { reader.close() }
            let statement = try reader.prepare("PRAGMA page_count")
            _ = try statement.step()
            return statement.int64(0)
        }
        load(20_000)
        let afterWarmUp = try pages()
        load(40_000)
        let afterMore = try pages()
        let wal = try size(SQLiteDeliveryStore.fileName + "-wal")
        print("retention: database \(afterWarmUp) pages after 20k records, \(afterMore) after 60k (max-count 2000); "
            + "WAL file \(wal) bytes")
        #expect(try store.count() == 2_000)
        // Deleted pages are reused, so the database does not grow with the number of records written; the WAL is
        // reset at checkpoints and truncated to journal_size_limit (64 MiB).
        // Without retention it would be about 3x (three times the records).
        #expect(afterMore <= afterWarmUp * 3 / 2)
        #expect(wal <= 64 << 20)
    }
}
