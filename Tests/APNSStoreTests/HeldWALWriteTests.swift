import Foundation
import Testing

@testable import APNSStore

/// Every connection writes the WAL through a VFS that sends each frame's header and page in one write
/// (`SQLiteConnection.vfs`). Once a COMMIT returns, nothing of it may still be held: the WAL file holds every frame
/// whole, and another connection reads the committed rows.
@Suite struct HeldWALWriteTests {
    @Test func aCommitLeavesEveryFrameWholeInTheWALAndReadableByAnotherConnection() throws {
        let directory = try TemporaryDirectory.make()
        let path = directory.path("held.sqlite")
        let writer = try SQLiteConnection(path: path, mode: .readWrite)
        defer { writer.close() }
        try writer.execute("PRAGMA page_size=8192")
        try writer.execute("PRAGMA journal_mode=WAL")
        try writer.execute("PRAGMA synchronous=NORMAL")
        try writer.execute("PRAGMA wal_autocheckpoint=0")
        writer.trackWALFrames()
        try writer.execute("CREATE TABLE rows(id INTEGER PRIMARY KEY, body BLOB)")
        let framesBefore = writer.walFrames
        let mergedBefore = SQLiteConnection.mergedWALWrites
        let insert = try writer.prepare("INSERT INTO rows(body) VALUES (?)")
        try writer.execute("BEGIN IMMEDIATE")
        for row in 0..<40 { try insert.run([.blob([UInt8](repeating: UInt8(row), count: 3_000))]) }
        try writer.execute("COMMIT")
        let frames = writer.walFrames
        #expect(frames - framesBefore > 10)
        // Each frame's page went out with its header (other tests may merge writes meanwhile: at least these).
        #expect(SQLiteConnection.mergedWALWrites - mergedBefore >= frames - framesBefore)
        // The WAL file: its 32-byte header and every frame, 24-byte header plus page, nothing short.
        let walSize = try #require(FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
        #expect(walSize == 32 + frames * (24 + 8192))

        let (count, bytes) = try Self.rowsAndBytes(path)
        #expect(count == 40)
        #expect(bytes == 40 * 3_000)
    }

    /// The rows and body bytes a new read-only connection sees.
    static func rowsAndBytes(_ path: String) throws -> (rows: Int64, bytes: Int64) {
        let reader = try SQLiteConnection(path: path, mode: .readOnly)
        defer { reader.close() }
        let query = try reader.prepare("SELECT count(*), sum(length(body)) FROM rows")
        try query.bind([])
        #expect(try query.step())
        defer { query.reset() }
        return (query.int64(0), query.int64(1))
    }

    /// After a checkpoint and a WAL restart, the next transaction starts the WAL again from its header (a write at
    /// offset 0 that does not continue what was held): the rows still read back from a fresh connection.
    @Test func rowsWrittenAcrossAWALRestartReadBack() throws {
        let directory = try TemporaryDirectory.make()
        let path = directory.path("restart.sqlite")
        let writer = try SQLiteConnection(path: path, mode: .readWrite)
        try writer.execute("PRAGMA journal_mode=WAL")
        try writer.execute("PRAGMA wal_autocheckpoint=0")
        try writer.execute("CREATE TABLE rows(id INTEGER PRIMARY KEY, body BLOB)")
        let insert = try writer.prepare("INSERT INTO rows(body) VALUES (?)")
        for round in 0..<3 {
            try writer.execute("BEGIN IMMEDIATE")
            for _ in 0..<25 { try insert.run([.blob([UInt8](repeating: UInt8(round), count: 2_000))]) }
            try writer.execute("COMMIT")
            try writer.execute("PRAGMA wal_checkpoint(RESTART)")
        }
        writer.close()
        let (count, bytes) = try Self.rowsAndBytes(path)
        #expect(count == 75)
        #expect(bytes == 75 * 2_000)
    }
}

/// The filter columns are written straight into the row (`EncodedDelivery`): the same values as the
/// field table's `value` for each column, in order, between the id and the empty search column.
@Suite struct RowColumnTests {
    @Test func aRowsColumnsAreTheFieldTablesValues() {
        for (offset, record) in SQLiteRowTests.records.enumerated() {
            let values = EncodedDelivery(record, id: Int64(offset + 1)).row.values
            let expected = [SQLiteValue.integer(Int64(offset + 1))] + DeliveryRecord.columnFields.map { $0.value(record) }
                + [.text("")]
            #expect(
                values.prefix(expected.count).map(SQLiteRowTests.describe) == expected.map(SQLiteRowTests.describe),
                "record \(offset)")
        }
    }
}
