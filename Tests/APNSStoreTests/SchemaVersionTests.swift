@testable import APNSCore
@testable import APNSStore
import DeliveryFixtures
import Foundation
import HTTPContract
import Testing

/// A store file of another schema version is never migrated or misread: the store moves it aside as it is (with its
/// WAL), says so, and starts a new file; a file of the current version is kept.
@Suite("Schema version: another version is moved aside, the current one kept")
struct SchemaVersionTests {
    /// Writes a file as a release of `version` might have left it: a table and `user_version` in the file, and a
    /// WAL that still holds the last commit (a row).
    static func writeFile(at path: String, version: Int) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute("PRAGMA journal_mode=WAL")
        try connection.execute("PRAGMA wal_autocheckpoint=0")
        try connection.execute("CREATE TABLE deliveries(id INTEGER PRIMARY KEY, record BLOB NOT NULL)")
        try connection.execute("PRAGMA user_version = \(version)")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  // the table and the version in the file
        try connection.execute("INSERT INTO deliveries(id, record) VALUES (1, x'7b7d')")
        connection.checkpointOnClose(false)
        connection.close()
    }

    static func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 99])
    func aFileOfAnotherVersionIsMovedAsideAndTheStoreStartsEmpty(version: Int) throws {
        let directory = try TemporaryDirectory.make()
        let path = directory.path(SQLiteDeliveryStore.fileName)
        try Self.writeFile(at: path, version: version)
        let file = try #require(Self.contents(path))
        let wal = try #require(Self.contents(path + "-wal"))
        #expect(!wal.isEmpty, "the old file's last commit is in its WAL")

        let clock = TestClock(Timestamp(secondsSinceEpoch: 1_767_225_600))  // 2026-01-01T00:00:00Z
        let store = try SQLiteDeliveryStore(path: path, retention: RetentionPolicy(), clock: clock, blockSize: nil)
        let movedTo = path + ".v\(version)-moved-20260101T000000Z"
        #expect(store.problems.openNotes.count == 1)
        let note = try #require(store.problems.openNotes.first)
        #expect(note.contains("schema version \(version),") && note.contains(movedTo), "\(note)")
        #expect(Self.contents(movedTo) == file, "the old file is moved as it was")
        #expect(Self.contents(movedTo + "-wal") == wal, "with its WAL")
        #expect(try store.deliveries(DeliveryQuery()).isEmpty)
        let id = appendDurably(store, makeRecord(token: "aa11"))
        #expect(try store.delivery(id: id)?.deviceToken == "aa11")
        store.close()

        let reopened = try SQLiteDeliveryStore(path: path, retention: RetentionPolicy(), clock: clock, blockSize: nil)
        defer { reopened.close() }
        #expect(reopened.problems.openNotes.isEmpty)
        #expect(try reopened.deliveries(DeliveryQuery()).map(\.id) == [id])
        #expect(Self.contents(movedTo) == file, "a second open leaves the moved file alone")
    }

    /// Two files of another version moved aside in the same second get names of their own.
    @Test func aSecondMoveInTheSameSecondDoesNotOverwriteTheFirst() throws {
        let directory = try TemporaryDirectory.make()
        let path = directory.path(SQLiteDeliveryStore.fileName)
        let clock = TestClock(Timestamp(secondsSinceEpoch: 1_767_225_600))
        var moved: [String] = []
        for _ in 0..<2 {
            try Self.writeFile(at: path, version: 5)
            let store = try SQLiteDeliveryStore(path: path, retention: RetentionPolicy(), clock: clock, blockSize: nil)
            moved += store.problems.openNotes
            store.close()
            try FileManager.default.removeItem(atPath: path)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let base = path + ".v5-moved-20260101T000000Z"
        #expect(moved.count == 2)
        #expect(moved.first?.contains(base + " ") == true)
        #expect(moved.last?.contains(base + "-2 ") == true)
        #expect(FileManager.default.fileExists(atPath: base) && FileManager.default.fileExists(atPath: base + "-2"))
    }

    /// A crash between moving the WAL aside and moving the file left them apart: the next open puts the WAL back
    /// and moves the two together, instead of moving the file alone under a second name.
    @Test func aMoveInterruptedAfterTheWALKeepsTheFileWithItsWAL() throws {
        let directory = try TemporaryDirectory.make()
        let path = directory.path(SQLiteDeliveryStore.fileName)
        try Self.writeFile(at: path, version: 6)
        let file = try #require(Self.contents(path))
        let wal = try #require(Self.contents(path + "-wal"))
        let earlier = path + ".v6-moved-20251231T235959Z"
        try FileManager.default.moveItem(atPath: path + "-wal", toPath: earlier + "-wal")  // then the crash

        let clock = TestClock(Timestamp(secondsSinceEpoch: 1_767_225_600))  // 2026-01-01T00:00:00Z
        let store = try SQLiteDeliveryStore(path: path, retention: RetentionPolicy(), clock: clock, blockSize: nil)
        defer { store.close() }
        let movedTo = path + ".v6-moved-20260101T000000Z"
        #expect(Self.contents(movedTo) == file, "the file is moved as it was")
        #expect(Self.contents(movedTo + "-wal") == wal, "beside its WAL")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.contains("20251231") }, "\(names)")
        #expect(store.problems.openNotes.contains { $0.contains(earlier + "-wal") && $0.contains("put back") })
        #expect(store.problems.openNotes.contains { $0.contains("schema version 6,") && $0.contains(movedTo + " ") })
        #expect(try store.deliveries(DeliveryQuery()).isEmpty)
        let id = appendDurably(store, makeRecord(token: "cc33"))
        #expect(try store.delivery(id: id)?.deviceToken == "cc33")
    }

    /// A WAL left aside by an earlier move is not put back beside a file that has a WAL of its own (it wrote since).
    @Test func aFileWithAWALOfItsOwnKeepsIt() throws {
        let directory = try TemporaryDirectory.make()
        let path = directory.path(SQLiteDeliveryStore.fileName)
        let earlier = path + ".v6-moved-20251231T235959Z"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: earlier + "-wal"))
        try Self.writeFile(at: path, version: 6)
        let wal = try #require(Self.contents(path + "-wal"))
        let clock = TestClock(Timestamp(secondsSinceEpoch: 1_767_225_600))
        let store = try SQLiteDeliveryStore(path: path, retention: RetentionPolicy(), clock: clock, blockSize: nil)
        defer { store.close() }
        let movedTo = path + ".v6-moved-20260101T000000Z"
        #expect(store.problems.openNotes.count == 1)
        #expect(store.problems.openNotes.first?.contains(movedTo + " ") == true)
        #expect(Self.contents(movedTo + "-wal") == wal)
        #expect(Self.contents(earlier + "-wal") == Data([1, 2, 3]))
    }

    @Test func aFileOfTheCurrentVersionIsKept() throws {
        let directory = try TemporaryDirectory.make()
        let path = directory.path(SQLiteDeliveryStore.fileName)
        let store = try SQLiteDeliveryStore(path: path)
        let id = appendDurably(store, makeRecord(token: "bb22"))
        store.close()
        let reopened = try SQLiteDeliveryStore(path: path)
        defer { reopened.close() }
        #expect(reopened.problems.openNotes.isEmpty)
        #expect(try reopened.delivery(id: id)?.deviceToken == "bb22")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.contains("moved") })
    }

    /// An archive (`deliveries --data-dir`) never writes: it refuses a file of another version, naming it.
    @Test func anArchiveRefusesAFileOfAnotherVersion() throws {
        let directory = try TemporaryDirectory.make()
        let path = directory.path(SQLiteDeliveryStore.fileName)
        try Self.writeFile(at: path, version: 6)
        #expect {
            try SQLiteDeliveryArchive(directory: directory.url.path)
        } throws: { error in
            "\(error)".contains("schema version 6") && "\(error)".contains(path)
        }
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
