@testable import APNSCore
@testable import APNSStore
import DeliveryFixtures
import Foundation
import Testing

@Suite("Retention keeps the store bounded")
struct RetentionTests {
    /// The in-memory ring keeps exactly max-count; SQLite drops whole blocks (at least 256 ids each), so it keeps
    /// the newest max-count to max-count + one block less one.
    @Test("keeps the newest max-count records", arguments: StoreKind.allCases)
    func maxCount(kind: StoreKind) throws {
        let store = try kind.make(retention: RetentionPolicy(maxCount: 50, maxAge: nil))
        defer { store.close() }
        let ids = (0..<700).map { _ in appendDurably(store, makeRecord()) }
        let count = try store.count()
        let block = Int(SQLiteSchema.blockSize(maxCount: 50))
        #expect(kind == .memory ? count == 50 : (count >= 50 && count < 50 + block))
        let kept = try store.deliveries(DeliveryQuery(limit: 1_000, order: .oldestFirst)).map(\.id)
        #expect(kept == Array(ids.suffix(count)))
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
        let maxCount = 2_000
        /// The database's logical size in pages, WAL content included: unlike the main file's size it does not
        /// depend on when SQLite happened to checkpoint (which varies with machine load).
        func pages(_ directory: TemporaryDirectory) throws -> Int64 {
            let reader = try SQLiteConnection(path: directory.path(SQLiteDeliveryStore.fileName), mode: .readOnly)
            defer { reader.close() }
            let statement = try reader.prepare("PRAGMA page_count")
            _ = try statement.step()
            return statement.int64(0)
        }
        func load(_ store: SQLiteDeliveryStore, _ count: Int) {
            for index in 0..<count { store.append(makeRecord(token: "t\(index)")) {} }
            store.flush()
        }

        // The most the store may ever hold at once: max-count records plus one full batch, written before
        // retention trims them in the same transaction.
        let boundDirectory = try TemporaryDirectory.make()
        let unbounded = try SQLiteDeliveryStore(
            directory: boundDirectory.url.path, retention: RetentionPolicy(maxCount: 1_000_000, maxAge: nil))
        load(unbounded, maxCount + WriterQueue.maximumBatch)
        unbounded.close()
        let bound = try pages(boundDirectory)

        let directory = try TemporaryDirectory.make()
        let store = try SQLiteDeliveryStore(
            directory: directory.url.path, retention: RetentionPolicy(maxCount: maxCount, maxAge: nil))
        defer { store.close() }
        var sizes: [Int64] = []
        for _ in 0..<3 {
            load(store, 20_000)
            sizes.append(try pages(directory))
        }
        let walPath = directory.path(SQLiteDeliveryStore.fileName + "-wal")
        let wal = (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) ?? 0
        print("retention: \(sizes) pages after 20k, 40k, 60k records (max-count \(maxCount)); bound \(bound) pages "
            + "(max-count + one batch of \(WriterQueue.maximumBatch)); WAL file \(wal) bytes")
        let count = try store.count()
        #expect(count >= maxCount && count < maxCount + Int(SQLiteSchema.blockSize(maxCount: maxCount)))
        // Deleted pages are reused: after 60k records the database is no larger than max-count plus one batch
        // (10% slack for b-tree fill). Without retention it would hold 60k records, about ten times that.
        #expect(sizes.allSatisfy { $0 <= bound + bound / 10 })
        #expect(wal <= 64 << 20)
    }
}
