import APNSCore
/// The tables the SQLite store keeps. Filterable fields are columns; the whole record is a blob (`record`, written
/// by `DeliveryCodec`). The rows live in block tables, `deliveries_<firstID>`, each holding a consecutive range of
/// ids: from its first id up to the next block's first (`SQLiteBlocks`). Retention drops whole blocks (`DROP TABLE`
/// frees their pages without rewriting them), never single rows (`SQLiteDeliveryWriter.applyRetention`): every row in
/// the file is shown by every read. A block is created and dropped in the writer's transaction, with the inserts, so
/// a crash leaves the blocks as they were at a commit.
///
/// There is no index: an index on a random key dirties a random page per insert, written to the WAL and again to
/// the file. Lookups scan the blocks newest first and compare the integer keys (`SQLiteLookupKey`, the first
/// columns after the id) before the text; `since`/`until` filter `received_at` in SQL.
///
/// `PRAGMA user_version` is `version`. There is no migration: the store moves a file of any other version aside
/// (`StoreFileAside`, named `<file>.v<version>-moved-<UTC time>`) and starts a new one.
enum SQLiteSchema {
    /// 8: the key columns first, no `search` column, no `store_meta` table (7: `DeliveryCodec`'s layout).
    static let version = 8

    /// The block tables' names start with `blockPrefix`.
    static let blockPrefix = "deliveries_"

    static func blockTable(firstID: Int64) -> String { blockPrefix + String(firstID) }

    /// The ids per block: a sixteenth of the count limit within 256…65,536, so a block's drop and the new block's
    /// prepared inserts (~1 M instructions with the CREATE) come every few thousand pushes. The file holds between
    /// `maxCount` and `maxCount` + one block of rows (`SQLiteDeliveryWriter.applyRetention`).
    static func blockSize(maxCount: Int) -> Int64 { Int64(max(256, min(maxCount / 16, 65_536))) }

    /// The page size of a new file. A Live Activity row (~2.5 KB with its columns) fits once in a 4 KiB page and
    /// three times in 8 KiB; with group commit most pages a commit writes are full ones.
    static let pageSize = 8192

    /// The lookup keys come right after the id, before the texts and the record, so that a scan reads them from the
    /// start of each row.
    static func createTable(named table: String) -> String {
        """
        CREATE TABLE \(table)(
            id INTEGER PRIMARY KEY,
            apns_key INTEGER NOT NULL,
            token_key INTEGER,
            received_at INTEGER NOT NULL,
            token TEXT,
            status INTEGER NOT NULL,
            reason TEXT,
            apns_id TEXT NOT NULL,
            push_type TEXT,
            topic TEXT,
            record BLOB NOT NULL
        );
        """
    }

    /// The lookup keys (not indexed), after the id, in the order `EncodedDelivery.row` binds them.
    static let keyColumns = ["apns_key", "token_key"]

    /// Every column of a block, in the order `EncodedDelivery.row` binds them: the id, the keys, the filter columns
    /// (`recordColumns`), the record. A new filter column also needs a line in `createTable` and a new `version`.
    static let insertedColumns = ["id"] + keyColumns + recordColumns.map(\.name) + ["record"]

    /// One INSERT of `rows` rows: the writer inserts a group's records `rowsPerInsert` at a time, as each statement
    /// run opens its cursors and builds its record buffer anew (allocations SQLite makes per run, not per row).
    ///
    /// `OR FAIL` for more than one row: a multi-row INSERT that may abort on a constraint half-way through makes
    /// SQLite keep a statement journal, a copy of every existing page the statement changes (the table's last page
    /// and its parents), so that it can undo the statement alone. The writer never needs that: any failed statement
    /// rolls back the whole transaction (`SQLiteDeliveryWriter.commit`), and FAIL keeps no such copy (9 % less CPU
    /// per row in a test of 16-row inserts of 2.3 KB rows).
    static func insert(rowCount rows: Int, into table: String) -> String {
        let values = "(" + Array(repeating: "?", count: insertedColumns.count).joined(separator: ", ") + ")"
        return (rows > 1 ? "INSERT OR FAIL" : "INSERT")
            + " INTO \(table)(\(insertedColumns.joined(separator: ", "))) VALUES "
            + Array(repeating: values, count: rows).joined(separator: ", ")
    }

    static let rowsPerInsert = 16

    /// Readies a file of this version (or a new one) for a store retaining `maxCount` records, in one transaction:
    /// trailing empty blocks go (the ids of an empty file start again at 1, and must not land in a block named for a
    /// later id), and so do the blocks a smaller count limit than the last one retires (`SQLiteBlocks.retired`).
    static func prepare(_ connection: SQLiteConnection, maxCount: Int) throws(DeliveryStoreError) {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(DeliveryStoreError) {
            var blocks = try SQLiteBlocks(connection).blocks
            while let last = blocks.last,
                try SQLiteBlocks.integer("SELECT EXISTS(SELECT 1 FROM \(last.table))", [], in: connection) == 0
            {
                try connection.execute("DROP TABLE \(last.table)")
                blocks.removeLast()
            }
            let lastID = try SQLiteBlocks(connection).maxID(connection)
            for block in blocks.prefix(SQLiteBlocks.retired(blocks.map(\.firstID), lastID: lastID, maxCount: maxCount)) {
                try connection.execute("DROP TABLE \(block.table)")
            }
            try connection.execute("PRAGMA user_version = \(version)")
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
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

/// The 64-bit lookup keys: FNV-1a 64 of the text's UTF-8 bytes. The apns-id's is taken over its
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
    /// The filter columns between the keys and the record blob, in the order `EncodedDelivery` writes them.
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

