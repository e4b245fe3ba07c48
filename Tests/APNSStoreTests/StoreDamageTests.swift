@testable import APNSCore
@testable import APNSStore
import DeliveryFixtures
import Foundation
import Testing

/// A damaged store file (issue 34): one row whose record cannot be decoded is left out of every read and named,
/// never hiding the others.
@Suite("Store damage: a bad row is left out and named")
struct StoreDamageTests {
    typealias Fixture = BlockRetentionTests

    /// Runs `sql` on the store file in `directory` with a connection of its own.
    static func damage(_ directory: TemporaryDirectory, _ sql: String) throws {
        let connection = try SQLiteConnection(path: directory.path(SQLiteDeliveryStore.fileName), mode: .readWrite)
        try connection.execute(sql)
        connection.close()
    }

    @Test func anUndecodableRowIsLeftOutOfListsSearchesAndExportAndNamedWhileEveryOtherRowReads() throws {
        let directory = try TemporaryDirectory.make()
        let retention = RetentionPolicy(maxCount: 100, maxAge: nil)
        let store = try Fixture.sqliteStore(directory, retention: retention)
        defer { store.close() }
        Fixture.append(0..<12, to: [store])  // ids 1…12 in blocks of 4
        try Self.damage(directory, "UPDATE deliveries_5 SET record = X'01FFFF00112233445566778899AABBCCDDEEFF0102030405060708' WHERE id = 7")
        let others = (Int64(1)...12).filter { $0 != 7 }
        let all = DeliveryQuery(filter: .all, limit: 100, order: .oldestFirst)

        #expect(try store.deliveries(all).map(\.id) == others)
        let page = try store.deliveryPage(all)
        #expect(page.undecodable.map(\.id) == [7])
        #expect(try store.deliveries(DeliveryQuery(filter: DeliveryFilter(text: "yb11"), limit: 100)).count == 4)
        #expect(store.problems.undecodable.map(\.id) == [7])
        #expect(store.problems.reasons.first?.contains("(id 7)") == true)
        #expect(throws: DeliveryStoreError.corruptRecord(id: 7, detail: "not a packed record")) {
            try store.delivery(id: 7)
        }
        var lines = 0
        let skipped = try store.exportJSONLines(.all) { chunk in lines += chunk.filter { $0 == 0x0A }.count }
        #expect(lines == 11 && skipped.map(\.id) == [7])

        let archive = try SQLiteDeliveryArchive(directory: directory.url.path)
        #expect(try archive.deliveryPage(all).records.map(\.id) == others)
        #expect(try archive.deliveryPage(all).undecodable.map(\.id) == [7])

        let check = try store.check()
        #expect(check.status == "damaged" && check.rows == 12 && check.undecodable.map(\.id) == [7])
        try store.reset()
        #expect(store.problems.reasons.isEmpty)
    }

    /// A bad disk turns a packed record into other bytes: decoding them throws (the row is left out), never traps.
    @Test func damagedPackedRecordsThrowInsteadOfTrapping() throws {
        let stored = SQLiteStoredRecordTests.forms(DeliveryCodecTests.liveActivity).packed
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        var decoded = 0
        for round in 0..<3_000 {
            var bytes = stored
            if round % 2 == 0 {
                // 64 bytes flipped somewhere after the tag.
                let start = 1 + Int(next() % UInt64(max(1, bytes.count - 65)))
                for index in start..<min(bytes.count, start + 64) { bytes[index] ^= 0xFF }
            } else {
                // Random bytes behind the packed tag.
                bytes = [DeliveryCodec.formatTag] + (0..<Int(next() % 600)).map { _ in UInt8(truncatingIfNeeded: next()) }
            }
            if (try? SQLiteStoredRecord.record(bytes, id: 1, receivedAt: 0)) != nil { decoded += 1 }
        }
        #expect(decoded < 3_000)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedNamingIt() throws {
        let directory = try TemporaryDirectory.make()
        let path = directory.path(SQLiteDeliveryStore.fileName)
        try Data(repeating: 0x5A, count: 65_536).write(to: URL(fileURLWithPath: path))
        #expect {
            try SQLiteDeliveryStore(path: path, retention: RetentionPolicy())
        } throws: { error in
            guard case DeliveryStoreError.damaged(let damagedPath, let detail) = error else { return false }
            return damagedPath == path && detail.contains("not a database")
        }
    }
}
