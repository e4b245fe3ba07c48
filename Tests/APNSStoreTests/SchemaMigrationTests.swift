@testable import APNSCore
import DeliveryFixtures
import Foundation
import Testing

@testable import APNSStore

/// A store file written before the lookup keys (schema version 1: text indexes on apns_id and token) stays
/// readable: an archive reads it as it is, and the store migrates it on open without losing a record.
@Suite struct SchemaMigrationTests {
    /// The version-1 schema as earlier releases created it.
    static let versionOne = """
        CREATE TABLE deliveries(
            id INTEGER PRIMARY KEY, received_at INTEGER NOT NULL, apns_id TEXT NOT NULL, token TEXT, topic TEXT,
            push_type TEXT, status INTEGER NOT NULL, reason TEXT, search TEXT NOT NULL, record BLOB NOT NULL);
        CREATE INDEX deliveries_apns_id ON deliveries(apns_id COLLATE NOCASE);
        CREATE INDEX deliveries_token ON deliveries(token);
        CREATE INDEX deliveries_received_at ON deliveries(received_at);
        PRAGMA user_version = 1;
        """

    static let records = [
        makeRecord(token: "aa11", apnsID: "6E1C1B9A-0000-4000-8000-000000000001"),
        makeRecord(token: "bb22", apnsID: "6e1c1b9a-0000-4000-8000-000000000002"),
        makeRecord(token: "aa11", apnsID: "6E1C1B9A-0000-4000-8000-000000000003"),
    ]

    /// Writes `records` into a version-1 file in a fresh directory; returns the directory.
    static func versionOneDirectory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory.make()
        let connection = try SQLiteConnection(path: directory.path(SQLiteDeliveryStore.fileName), mode: .readWrite)
        defer { connection.close() }
        try connection.execute("PRAGMA journal_mode=WAL")
        try connection.execute(versionOne)
        // Version 1 bound the same values as version 2 without the trailing lookup keys.
        let names = ["id"] + SQLiteSchema.recordColumns.map(\.name) + ["search", "record"]
        let insert = try connection.prepare(
            "INSERT INTO deliveries(\(names.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")")
        for (offset, record) in records.enumerated() {
            let row = EncodedDelivery(record, id: Int64(offset + 1), json: record.withID(0).jsonBytes).row.values
            try insert.run(Array(row.prefix(names.count)))
        }
        return directory
    }

    static func checkLookups(_ reader: any DeliveryReader) throws {
        #expect(try reader.delivery(apnsID: "6e1c1b9a-0000-4000-8000-000000000001")?.id == 1)
        #expect(try reader.delivery(apnsID: "6E1C1B9A-0000-4000-8000-000000000002")?.id == 2)
        #expect(try reader.delivery(apnsID: "6E1C1B9A-0000-4000-8000-000000000009") == nil)
        let byToken = try reader.deliveries(DeliveryQuery(filter: DeliveryFilter(token: "aa11")))
        #expect(byToken.map(\.id) == [3, 1])
        #expect(try reader.deliveries(DeliveryQuery(filter: DeliveryFilter(token: "AA11"))).isEmpty)
    }

    @Test func anArchiveReadsAVersionOneFileAsItIs() throws {
        let directory = try Self.versionOneDirectory()
        let archive = try SQLiteDeliveryArchive(directory: directory.url.path)
        try Self.checkLookups(archive)
    }

    @Test func theStoreMigratesAVersionOneFileAndKeepsEveryRecord() throws {
        let directory = try Self.versionOneDirectory()
        let store = try SQLiteDeliveryStore(directory: directory.url.path)
        defer { store.close() }
        #expect(try store.count() == 3)
        try Self.checkLookups(store)
        let added = makeRecord(token: "aa11", apnsID: "6E1C1B9A-0000-4000-8000-000000000004")
        let done = DispatchSemaphore(value: 0)
        store.append(added) { _ in done.signal() }
        done.wait()
        #expect(try store.delivery(apnsID: "6e1c1b9a-0000-4000-8000-000000000004")?.id == 4)
        #expect(try store.deliveries(DeliveryQuery(filter: DeliveryFilter(token: "aa11"))).map(\.id) == [4, 3, 1])

        let check = try SQLiteConnection(path: directory.path(SQLiteDeliveryStore.fileName), mode: .readOnly)
        defer { check.close() }
        #expect(try SQLiteSchema.hasLookupKeys(check))
        let version = try check.prepare("PRAGMA user_version")
        try version.bind([])
        #expect(try version.step() && version.int64(0) == Int64(SQLiteSchema.version))
        let oldIndexes = try check.prepare(
            "SELECT count(*) FROM sqlite_master WHERE name IN ('deliveries_apns_id', 'deliveries_token')")
        try oldIndexes.bind([])
        #expect(try oldIndexes.step() && oldIndexes.int64(0) == 0)
    }

    /// The apns-id key folds ASCII case as `COLLATE NOCASE` does, and nothing else; the token key folds nothing.
    @Test func lookupKeysFoldCaseAsTheirColumnsCompare() {
        #expect(key(SQLiteLookupKey.apnsID("AbC-1")) == key(SQLiteLookupKey.apnsID("abc-1")))
        #expect(key(SQLiteLookupKey.apnsID("É")) != key(SQLiteLookupKey.apnsID("é")))
        #expect(key(SQLiteLookupKey.token("AB")) != key(SQLiteLookupKey.token("ab")))
    }

    private func key(_ value: SQLiteValue) -> Int64? {
        if case .integer(let number) = value { return number }
        return nil
    }
}
