@testable import APNSCore
import DeliveryFixtures
import Foundation
import Testing

@testable import APNSStore

/// The SQLite store binds a pushed record's row from one buffer (`SQLiteRow`) with SQLite reading the bytes in
/// place: what lands in the file must be exactly what binding the same values one by one stores.
@Suite struct SQLiteRowTests {
    static let valueLists: [[SQLiteValue]] = [
        [],
        [.null],
        [.integer(0), .integer(-1), .integer(.max), .integer(.min), .integer(0x0102_0304_0506_0708)],
        [.text(""), .text("plain"), .text("é ü ✓ 🙂 \u{0}nul"), .text(String(repeating: "x", count: 70_000))],
        [.blob([]), .blob([0, 255, 1, 254]), .blob([UInt8](repeating: 0x7b, count: 300))],
        [.integer(7), .null, .text("quote \" backslash \\ newline \n"), .blob(Array("{}".utf8)), .null],
    ]

    @Test(arguments: valueLists) func aRowDecodesToTheValuesItWasBuiltFrom(values: [SQLiteValue]) {
        let row = SQLiteRow(values)
        #expect(row.values.map(Self.describe) == values.map(Self.describe))
        #expect(row.bytes.count == values.reduce(0) { $0 + SQLiteRow.encodedCount($1) })
    }

    @Test func replacingTheIdChangesOnlyTheFirstValue() {
        var row = SQLiteRow([.integer(0), .text("a"), .integer(5)])
        row.replaceFirstInteger(with: -123_456_789_012)
        #expect(row.values.map(Self.describe) == ["i-123456789012", "ta", "i5"])
    }

    /// Varied records (optional fields absent and present, unicode, escapes, a non-UTF-8 payload): the row the
    /// store binds from one buffer and the row bound value by value leave identical columns in the file.
    @Test func aRowBoundInPlaceStoresTheSameColumnsAsValuesBoundOneByOne() throws {
        let directory = try TemporaryDirectory.make()
        let connection = try SQLiteConnection(path: directory.path("rows.sqlite"), mode: .readWrite)
        defer { connection.close() }
        try connection.execute(SQLiteSchema.createTable(named: "deliveries"))
        let insert = try connection.prepare(SQLiteSchema.insert(rowCount: 1, into: "deliveries"))
        for (offset, record) in Self.records.enumerated() {
            let fromWriter = EncodedDelivery(record, id: 0)
            var assigned = fromWriter
            assigned.assign(id: Int64(2 * offset + 1))
            let fromArray = EncodedDelivery(record, id: Int64(2 * offset + 2), json: fromWriter.storedRecord)
            #expect(assigned.id == Int64(2 * offset + 1))
            #expect(Array(assigned.row.bytes.dropFirst(9)) == Array(fromArray.row.bytes.dropFirst(9)))
            try insert.run(assigned.row)
            try insert.run(fromArray.row.values)
        }
        let read = try connection.prepare("SELECT * FROM deliveries ORDER BY id")
        try read.bind([])
        var rows: [[String]] = []
        while try read.step() {
            rows.append((1..<SQLiteSchema.insertedColumns.count).map { column in read.isNull(Int32(column)) ? "NULL" : "\(read.bytes(Int32(column)))" })
        }
        #expect(rows.count == 2 * Self.records.count)
        for pair in stride(from: 0, to: rows.count, by: 2) {
            #expect(rows[pair] == rows[pair + 1], "record \(pair / 2)")
        }
        // The blob is the packed record, which reads back as the record.
        for (offset, record) in Self.records.enumerated() {
            let stored = EncodedDelivery(record, id: 1).storedRecord
            #expect(stored.first == DeliveryCodec.formatTag, "record \(offset)")
            #expect(
                try SQLiteStoredRecord.record(stored, id: 1, receivedAt: record.receivedAt.nanosecondsSinceEpoch)
                    == record.withID(1), "record \(offset)")
        }
    }

    /// The writer inserts full sets of rows with one statement: the file holds the same as with one row each.
    @Test func rowsInsertedTogetherStoreWhatRowsInsertedAloneStore() throws {
        let directory = try TemporaryDirectory.make()
        let connection = try SQLiteConnection(path: directory.path("rows.sqlite"), mode: .readWrite)
        defer { connection.close() }
        try connection.execute(SQLiteSchema.createTable(named: "deliveries"))
        let records = (0..<SQLiteSchema.rowsPerInsert).map { Self.records[$0 % Self.records.count] }
        let together = records.enumerated().map { offset, record in
            EncodedDelivery(record, id: Int64(offset + 1)).row
        }
        try connection.prepare(SQLiteSchema.insert(rowCount: together.count, into: "deliveries")).run(rows: together)
        let alone = try connection.prepare(SQLiteSchema.insert(rowCount: 1, into: "deliveries"))
        for (offset, record) in records.enumerated() {
            try alone.run(EncodedDelivery(record, id: Int64(1_000 + offset)).row)
        }
        let read = try connection.prepare("SELECT * FROM deliveries ORDER BY id")
        try read.bind([])
        var rows: [[String]] = []
        while try read.step() {
            rows.append((1..<SQLiteSchema.insertedColumns.count).map { column in read.isNull(Int32(column)) ? "NULL" : "\(read.bytes(Int32(column)))" })
        }
        #expect(rows.count == 2 * records.count)
        #expect(Array(rows.prefix(records.count)) == Array(rows.suffix(records.count)))
    }

    /// Pushes queued together (full sets of rows, a remainder, a reset between them): every acknowledged record
    /// reads back whole under its id, and the reset takes exactly what was queued before it.
    @Test func aStoreGroupOfManyPushesReadsBackRecordByRecord() throws {
        let store = try SQLiteDeliveryStore(path: TemporaryDirectory.make().path(SQLiteDeliveryStore.fileName))
        defer { store.close() }
        let records = (0..<(3 * SQLiteSchema.rowsPerInsert + 5)).map { Self.records[$0 % Self.records.count] }
        let ids = records.map { store.append($0) { _ in } }
        store.flush()
        for (record, id) in zip(records, ids) {
            #expect(try store.delivery(id: id) == record.withID(id), "id \(id)")
        }
        let before = (0..<(SQLiteSchema.rowsPerInsert + 3)).map { _ in store.append(Self.records[0]) { _ in } }
        #expect(try store.reset() == records.count + before.count)
        let after = records.prefix(SQLiteSchema.rowsPerInsert + 1).map { store.append($0) { _ in } }
        store.flush()
        #expect(try store.count() == after.count)
        #expect(try store.delivery(id: after.last!)?.apnsID == records[SQLiteSchema.rowsPerInsert].apnsID)
    }

    static let records: [DeliveryRecord] = {
        var binary = makeRecord(token: nil, topic: nil, pushType: nil, status: 400, reason: "BadDeviceToken")
        binary.payload = [0xff, 0xfe, 0x00, 0x22]
        return [
            makeRecord(),
            makeRecord(pushType: "liveactivity", liveActivityCode: "ignored-stale-timestamp"),
            makeRecord(
                token: "ÄÖÜ-токен-🙂", topic: "com.example.ünïcode", status: 410, reason: "Unregistered",
                explanation: "line one\nline \"two\"\t\\ tab", payload: #"{"aps":{"alert":"héllo \u0001 🙂"}}"#,
                warnings: [PushWarning(code: "w", message: "ctrl \u{1} and \u{7f}")]),
            binary,
            makeRecord(token: "", topic: "", pushType: "", status: 0, reason: ""),
        ]
    }()

    static func describe(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let number): "i\(number)"
        case .text(let text): "t\(text)"
        case .blob(let bytes): "b\(bytes)"
        }
    }
}
