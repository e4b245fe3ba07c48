@testable import APNSCore
import DeliveryFixtures
import Foundation
import Testing

@testable import APNSStore

/// A version-3 file (the `received_at` index, no key indexes) opens as before: an archive reads it as it is, and the
/// store drops the index, moves it to the current version, keeps every record, and applies its age limit and `since`/`until`
/// to the rows it loads.
@Suite struct SchemaVersionThreeTests {
    static let start = Timestamp(secondsSinceEpoch: 1_767_225_600)

    /// A version-3 file as the previous release created it, holding rows received at 0, 20, 10 and 40 s.
    static func versionThreeDirectory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory.make()
        let connection = try SQLiteConnection(path: directory.path(SQLiteDeliveryStore.fileName), mode: .readWrite)
        defer { connection.close() }
        try connection.execute("PRAGMA journal_mode=WAL")
        try connection.execute(SQLiteSchema.createTable)
        try connection.execute("""
            CREATE INDEX deliveries_received_at ON deliveries(received_at);
            PRAGMA user_version = 3;
            """)
        let insert = try connection.prepare(SQLiteSchema.insert)
        for (offset, seconds) in [0.0, 20, 10, 40].enumerated() {
            let record = makeRecord(token: "aa11", receivedAt: start.adding(seconds: seconds))
            try insert.run(EncodedDelivery(record, id: Int64(offset + 1), json: record.withID(0).jsonBytes).row)
        }
        return directory
    }

    static func since(_ reader: any DeliveryReader, _ seconds: Double) throws -> [Int64] {
        try reader.deliveries(DeliveryQuery(
            filter: DeliveryFilter(since: start.adding(seconds: seconds)), limit: 100, order: .oldestFirst)
        ).map(\.id)
    }

    static func indexNames(_ directory: TemporaryDirectory) throws -> [String] {
        try BlockRetentionTests.schemaNames(directory, type: "index")
    }

    @Test func anArchiveReadsAVersionThreeFileAsItIs() throws {
        let directory = try Self.versionThreeDirectory()
        let archive = try SQLiteDeliveryArchive(directory: directory.url.path)
        #expect(try Self.since(archive, 0) == [1, 2, 3, 4])
        #expect(try Self.since(archive, 10) == [2, 3, 4])
        #expect(try Self.indexNames(directory) == ["deliveries_received_at"])
    }

    @Test func theStoreMovesAVersionThreeFileToTheCurrentVersionAndAgesItsRows() throws {
        let directory = try Self.versionThreeDirectory()
        let clock = TestClock(Self.start.adding(seconds: 75))  // cutoff with a 60 s limit: 15 s
        let store = try SQLiteDeliveryStore(
            directory: directory.url.path, retention: RetentionPolicy(maxCount: 1_000, maxAge: .seconds(60)),
            clock: clock)
        #expect(try Self.since(store, 10) == [2, 3, 4])  // read before any commit: nothing aged yet
        let fresh = appendDurably(store, makeRecord(token: "aa11", receivedAt: clock.now()))
        #expect(try Self.since(store, 0) == [2, 4, fresh])
        #expect(try store.deliveries(DeliveryQuery(filter: DeliveryFilter(token: "aa11"))).map(\.id) == [fresh, 4, 2])
        store.close()

        #expect(try Self.indexNames(directory).isEmpty)
        let check = try SQLiteConnection(path: directory.path(SQLiteDeliveryStore.fileName), mode: .readOnly)
        defer { check.close() }
        let version = try check.prepare("PRAGMA user_version")
        try version.bind([])
        #expect(try version.step() && version.int64(0) == Int64(SQLiteSchema.version))
        let archive = try SQLiteDeliveryArchive(directory: directory.url.path)
        #expect(try Self.since(archive, 15) == [2, 4, fresh])
    }
}
