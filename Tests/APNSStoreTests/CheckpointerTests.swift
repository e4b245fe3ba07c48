@testable import APNSCore
import Foundation
import Testing

@testable import APNSStore

/// Checkpoints run on the checkpointer's own connection and thread, never inside a group commit (the WAL staying
/// bounded under sustained load is RetentionTests' `diskFlat`).
@Suite struct CheckpointerTests {
    /// A WAL-mode database with automatic checkpoints off and `rows` rows written through the WAL.
    static func database(rows: Int) throws -> (path: String, connection: SQLiteConnection) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("checkpointer-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("test.sqlite").path
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute("PRAGMA journal_mode=WAL")
        try connection.execute("PRAGMA wal_autocheckpoint=0")
        try connection.execute("CREATE TABLE rows(id INTEGER PRIMARY KEY, body BLOB)")
        let insert = try connection.prepare("INSERT INTO rows(body) VALUES (?)")
        for _ in 0..<rows { try insert.run([.blob([UInt8](repeating: 7, count: 3_000))]) }
        return (path, connection)
    }

    @Test func aRequestedCheckpointCopiesTheWholeWALOnItsOwnThread() throws {
        let (path, writer) = try Self.database(rows: 200)
        let done = DispatchSemaphore(value: 0)
        let result = Locked<(Int64, Int64)?>(nil)
        let checkpointer = try SQLiteCheckpointer(path: path) { frames, checkpointed in
            result.withLock { $0 = (frames, checkpointed) }
            done.signal()
        }
        checkpointer.request()
        done.wait()
        let (frames, checkpointed) = try #require(result.withLock { $0 })
        #expect(frames >= 200)
        #expect(checkpointed == frames)
        checkpointer.close()
        writer.close()
    }

    @Test func closingWithNoRequestStopsTheThread() throws {
        let (path, writer) = try Self.database(rows: 1)
        let checkpointer = try SQLiteCheckpointer(path: path) { _, _ in Issue.record("no checkpoint was requested") }
        checkpointer.close()
        writer.close()
    }
}
