import APNSCore
/// The tables the SQLite store keeps. Filterable fields are columns; the whole record is a blob (`record`, written
/// by `DeliveryCodec`). The rows live in block tables, `deliveries_<firstID>`, each holding a consecutive range of
/// ids: from its first id up to the next block's first (`SQLiteBlocks`). Count retention drops whole blocks
/// (`DROP TABLE` frees their pages without rewriting them): the writer starts a new block every
/// `blockSize(maxCount:)` ids and drops a block at the first block start after every id in it is beyond retention
/// (`SQLiteDeliveryWriter.startBlock`); until then its retired rows are hidden: every read takes only the ids above
/// the file's highest id less `maxCount`, the count limit the store last opened the file with, kept in `store_meta`,
/// so an archive hides the same rows. Age retention (rare) deletes rows, in their blocks. A block is created and
/// dropped in the writer's transaction, with the inserts, so a crash leaves the blocks as they were at a commit.
/// The apns-id and device-token keys (`SQLiteLookupKey`) are columns without an index: the store keeps those
/// lookups in memory (`SQLiteLookupIndex`), an archive scans the key columns.
///
/// `PRAGMA user_version` is `version`. There is no migration: the store moves a file of any other version aside
/// (`StoreFileAside`, named `<file>.v<version>-moved-<UTC time>`) and starts a new one.
enum SQLiteSchema {
    /// 7: `DeliveryCodec`'s layout of store32 (6 was the packed record with intern pools).
    static let version = 7

    /// The block tables' names start with `blockPrefix`.
    static let blockPrefix = "deliveries_"

    static func blockTable(firstID: Int64) -> String { blockPrefix + String(firstID) }

    /// The ids per block: a sixteenth of the count limit within 256…65,536, so a file holds about `maxCount` + 1/16
    /// rows, and a block's drop and the new block's prepared inserts (~1 M instructions with the CREATE) come every few
    /// thousand pushes.
    static func blockSize(maxCount: Int) -> Int64 { Int64(max(256, min(maxCount / 16, 65_536))) }

    /// The count limit the store last opened the file with (`SQLiteBlocks.hideRetired`).
    /// (No primary key: its automatic index would be the file's only index, and files of versions 4 and 5 keep none.)
    static let createMeta = "CREATE TABLE IF NOT EXISTS store_meta(key TEXT NOT NULL, value INTEGER NOT NULL)"
    static let maxCountKey = "max_count"
    /// Beside `max_count`, its check (`maxCountCheck`): a damaged value decides which rows every read shows, so it
    /// is validated, never trusted (a file written before the check was kept has none: its value is taken if it is
    /// positive).
    static let maxCountCheckKey = "max_count_check"

    static func maxCountCheck(_ value: Int64) -> Int64 { SQLiteLookupKey.tokenKey("max_count=\(value)") }

    /// The page size of a new file. A Live Activity row (~2.5 KB with its columns) fits once in a 4 KiB page and
    /// three times in 8 KiB; with group commit most pages a commit writes are full ones.
    static let pageSize = 8192

    static func createTable(named table: String) -> String {
        """
        CREATE TABLE \(table)(
            id INTEGER PRIMARY KEY,
            received_at INTEGER NOT NULL,
            apns_id TEXT NOT NULL,
            token TEXT,
            topic TEXT,
            push_type TEXT,
            status INTEGER NOT NULL,
            reason TEXT,
            search TEXT NOT NULL,
            record BLOB NOT NULL,
            apns_key INTEGER,
            token_key INTEGER
        );
        """
    }

    /// The columns after the record's own: the lookup keys (not indexed), in the order `EncodedDelivery.row` binds
    /// them.
    static let keyColumns = ["apns_key", "token_key"]

    /// Column names come from the record's field table (`SQLiteSchema.recordColumns`), in the order
    /// `EncodedDelivery.row` binds them. A new filter column also needs a line in `createTable` and a new `version`.
    /// One INSERT of `rows` rows: the writer inserts a group's records `rowsPerInsert` at a time, as each statement
    /// run opens its cursors and builds its record buffer anew (allocations SQLite makes per run, not per row).
    ///
    /// `OR FAIL` for more than one row: a multi-row INSERT that may abort on a constraint half-way through makes
    /// SQLite keep a statement journal, a copy of every existing page the statement changes (the table's last page
    /// and its parents), so that it can undo the statement alone. The writer never needs that: any failed statement
    /// rolls back the whole transaction (`SQLiteDeliveryWriter.commit`), and FAIL keeps no such copy (9 % less CPU
    /// per row in a test of 16-row inserts of 2.3 KB rows).
    static func insert(rowCount rows: Int, into table: String) -> String {
        let names = ["id"] + SQLiteSchema.recordColumns.map(\.name) + ["search", "record"] + keyColumns
        let values = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        return (rows > 1 ? "INSERT OR FAIL" : "INSERT") + " INTO \(table)(\(names.joined(separator: ", "))) VALUES "
            + Array(repeating: values, count: rows).joined(separator: ", ")
    }

    static let rowsPerInsert = 16

    /// Readies a file of this version (or a new one) for a store retaining `maxCount` records, in one transaction:
    /// trailing empty blocks go (the ids of an empty file start again at 1, and must not land in a block named for a
    /// later id), rows a smaller earlier limit retired go (`deleteRetired`), and `store_meta` records `maxCount`.
    /// Returns what it found wrong and ignored (retention metadata that failed its check), for the store to report.
    @discardableResult
    static func prepare(_ connection: SQLiteConnection, maxCount: Int) throws(DeliveryStoreError) -> [String] {
        var notes: [String] = []
        if case .failed(let detail) = try storedLimit(connection) {
            notes.append("\(detail); it was ignored: no row was hidden or deleted by it, and the store now keeps \(maxCount)")
        }
        try connection.execute("BEGIN IMMEDIATE")
        do throws(DeliveryStoreError) {
            var blocks = try SQLiteBlocks(connection).blocks
            while let last = blocks.last,
                try SQLiteBlocks.integer("SELECT EXISTS(SELECT 1 FROM \(last.table))", [], in: connection) == 0
            {
                try connection.execute("DROP TABLE \(last.table)")
                blocks.removeLast()
            }
            try deleteRetired(connection, growingTo: maxCount)
            try connection.execute(createMeta)
            try connection.prepare("DELETE FROM store_meta WHERE key IN (?, ?)")
                .run([.text(maxCountKey), .text(maxCountCheckKey)])
            let insert = try connection.prepare("INSERT INTO store_meta(key, value) VALUES (?, ?)")
            try insert.run([.text(maxCountKey), .integer(Int64(maxCount))])
            try insert.run([.text(maxCountCheckKey), .integer(maxCountCheck(Int64(maxCount)))])
            try connection.execute("PRAGMA user_version = \(version)")
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        return notes
    }

    /// When the store opens its file with a larger count limit than the one in `store_meta`, deletes the rows the
    /// smaller limit had retired but not yet dropped (at most about two blocks' rows, once), so the larger limit does
    /// not show them again.
    private static func deleteRetired(
        _ connection: SQLiteConnection, growingTo maxCount: Int
    ) throws(DeliveryStoreError) {
        guard let stored = try storedMaxCount(connection), stored < maxCount else { return }
        let blocks = try SQLiteBlocks(connection)
        let firstVisible = SQLiteBlocks.firstVisible(maxID: try blocks.maxID(connection), maxCount: stored)
        for block in blocks.blocks.dropLast() where block.lastID < firstVisible {
            try connection.execute("DROP TABLE \(block.table)")
        }
        for block in blocks.blocks where block.firstID < firstVisible && block.lastID >= firstVisible {
            try connection.prepare("DELETE FROM \(block.table) WHERE id < ?").run([.integer(firstVisible)])
        }
    }

    /// The count limit in `store_meta`; nil when there is none, or its value failed its check
    /// (nothing hidden: every row shows, rather than rows hidden by a damaged value).
    static func storedMaxCount(_ connection: SQLiteConnection) throws(DeliveryStoreError) -> Int? {
        guard case .valid(let maxCount) = try storedLimit(connection) else { return nil }
        return maxCount
    }

    enum StoredLimit: Equatable {
        /// No `store_meta` or no `max_count` in it (a new file).
        case absent
        case valid(Int)
        /// The value is not a count limit, or does not match its check: what was found.
        case failed(String)
    }

    /// The count limit in `store_meta`, validated.
    static func storedLimit(_ connection: SQLiteConnection) throws(DeliveryStoreError) -> StoredLimit {
        let exists = try SQLiteBlocks.integer(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'store_meta'", [], in: connection)
        guard exists ?? 0 > 0 else { return .absent }
        let read = "SELECT value FROM store_meta WHERE key = ?"
        guard let value = try SQLiteBlocks.integer(read, [.text(maxCountKey)], in: connection) else { return .absent }
        let check = try SQLiteBlocks.integer(read, [.text(maxCountCheckKey)], in: connection)
        guard value > 0, value <= Int64(Int32.max) else {
            return .failed("the store's retention metadata (store_meta max_count = \(value)) is not a count limit")
        }
        if let check, check != maxCountCheck(value) {
            return .failed("the store's retention metadata (store_meta max_count = \(value)) does not match its check")
        }
        return .valid(Int(value))
    }

    /// The version of the file `connection` has open (`PRAGMA user_version`); nil for a new file (version 0 and no
    /// table).
    static func fileVersion(_ connection: SQLiteConnection) throws(DeliveryStoreError) -> Int? {
        let version = try SQLiteBlocks.integer("PRAGMA user_version", [], in: connection) ?? 0
        if version == 0, try SQLiteBlocks.integer("SELECT count(*) FROM sqlite_master", [], in: connection) == 0 {
            return nil
        }
        return Int(version)
    }
}

/// The 64-bit keys of the version-2 indexes: FNV-1a 64 of the text's UTF-8 bytes. The apns-id's is taken over its
/// ASCII-lower-cased bytes, as SQLite's `COLLATE NOCASE` (which its lookup keeps) folds ASCII letters only.
enum SQLiteLookupKey {
    static func apnsID(_ text: String) -> SQLiteValue { .integer(apnsIDKey(text)) }

    static func token(_ text: String) -> SQLiteValue { .integer(tokenKey(text)) }

    static func apnsIDKey(_ text: String) -> Int64 { hash(text, foldingASCIICase: true) }

    static func tokenKey(_ text: String) -> Int64 { hash(text, foldingASCIICase: false) }

    private static func hash(_ text: String, foldingASCIICase: Bool) -> Int64 {
        var text = text
        let hash = text.withUTF8 { utf8 in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for var byte in utf8 {
                if foldingASCIICase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            return hash
        }
        return Int64(bitPattern: hash)
    }
}

extension SQLiteSchema {
    /// The filter columns beside the record blob, in the order `EncodedDelivery` writes them.
    static let recordColumns: [DeliveryRecordColumn] = [
        DeliveryRecordColumn("received_at", integer: { $0.receivedAt.nanosecondsSinceEpoch }),
        DeliveryRecordColumn("token", text: { $0.deviceToken }),
        DeliveryRecordColumn("status", integer: { Int64($0.status) }),
        DeliveryRecordColumn("reason", text: { $0.reason }),
        DeliveryRecordColumn("apns_id", text: { $0.apnsID }),
        DeliveryRecordColumn("push_type", text: { $0.pushType }),
        DeliveryRecordColumn("topic", text: { $0.topic }),
    ]
}

/// A SQLite filter column and how its value is read from a record. A struct, not a tuple or a bare closure in an
/// optional or an array: those hold the closure at the most general abstraction, and each call then went through a
/// thunk that copied the whole record. The store's rows write the columns straight from the record
/// (`EncodedDelivery.init(columnsOf:id:blobCapacity:)`, in `SQLiteSchema.recordColumns`' order); `value` is the
/// reference they are tested against.
struct DeliveryRecordColumn: Sendable {
    enum Getter: Sendable {
        case integer(@Sendable (DeliveryRecord) -> Int64)
        /// nil: SQL NULL.
        case text(@Sendable (DeliveryRecord) -> String?)
    }

    let name: String
    let getter: Getter

    init(_ name: String, integer: @escaping @Sendable (DeliveryRecord) -> Int64) {
        self.name = name
        getter = .integer(integer)
    }

    init(_ name: String, text: @escaping @Sendable (DeliveryRecord) -> String?) {
        self.name = name
        getter = .text(text)
    }

    /// The column's value for `record`.
    func value(_ record: DeliveryRecord) -> SQLiteValue {
        switch getter {
        case .integer(let get): .integer(get(record))
        case .text(let get): get(record).map { .text($0) } ?? .null
        }
    }
}

