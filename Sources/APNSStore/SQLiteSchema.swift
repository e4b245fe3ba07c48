/// The table the SQLite store keeps. Filterable fields are columns (with indexes for the lookups the admin API and
/// retention make); the whole record is a JSON blob, so new record fields need no migration.
///
/// Version 2 indexes the apns-id and the device token through 64-bit keys (`SQLiteLookupKey`) instead of the text
/// itself: an index entry of 8 bytes rather than 36–200 dirties fewer pages per push, and the store writes every
/// dirtied page to the WAL before the 200 leaves. Lookups compare the key and then the text, so a key collision
/// costs a row read, never a wrong answer. Version-1 files are migrated when the store opens them (`migrate`), and
/// read as they are by a read-only archive (`SQLiteDeliveryReader.usesLookupKeys`).
///
/// The `search` column is written empty: it held each record's lower-cased search text, a third of the bytes every
/// push wrote through the WAL. Free-text search reads the record JSON instead (`SQLiteDeliveryReader.deliveries`,
/// `DeliveryRecord.storedJSON(_:mayMatchSearch:)`), which also answers for files written when it was filled.
enum SQLiteSchema {
    static let version = 2

    static let createTable = """
        CREATE TABLE IF NOT EXISTS deliveries(
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

    static let createIndexes = """
        CREATE INDEX IF NOT EXISTS deliveries_apns_key ON deliveries(apns_key);
        CREATE INDEX IF NOT EXISTS deliveries_token_key ON deliveries(token_key);
        CREATE INDEX IF NOT EXISTS deliveries_received_at ON deliveries(received_at);
        PRAGMA user_version = \(version);
        """

    static let create = createTable + "\n" + createIndexes

    /// The columns after the record's own: the lookup keys, in the order `EncodedDelivery.row` binds them.
    static let keyColumns = ["apns_key", "token_key"]

    /// Column names come from the record's field table (`DeliveryRecord.columnFields`), in the order
    /// `EncodedDelivery.row` binds them. A new filter column also needs a line in `create` and, for existing
    /// files, a migration (bump `version`).
    static let insert: String = {
        let names = ["id"] + DeliveryRecord.columnFields.map(\.name) + ["search", "record"] + keyColumns
        return "INSERT INTO deliveries(\(names.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
    }()

    /// Creates the table, brings a version-1 file to version 2 (adds and fills the key columns, swaps the text
    /// indexes for key indexes, in one transaction), then creates the indexes.
    static func prepare(_ connection: SQLiteConnection) throws(DeliveryStoreError) {
        try connection.execute(createTable)
        if try !hasLookupKeys(connection) { try migrate(connection) }
        try connection.execute(createIndexes)
    }

    /// Whether the file's table has the version-2 key columns.
    static func hasLookupKeys(_ connection: SQLiteConnection) throws(DeliveryStoreError) -> Bool {
        let statement = try connection.prepare(
            "SELECT count(*) FROM pragma_table_info('deliveries') WHERE name = 'apns_key'")
        try statement.bind([])
        return try statement.step() && statement.int64(0) > 0
    }

    private static func migrate(_ connection: SQLiteConnection) throws(DeliveryStoreError) {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(DeliveryStoreError) {
            try connection.execute("""
                ALTER TABLE deliveries ADD COLUMN apns_key INTEGER;
                ALTER TABLE deliveries ADD COLUMN token_key INTEGER;
                DROP INDEX IF EXISTS deliveries_apns_id;
                DROP INDEX IF EXISTS deliveries_token;
                """)
            // Read every row's keys first: SQLite leaves a scan undefined while the same table is updated under it.
            let rows = try connection.prepare("SELECT id, apns_id, token FROM deliveries")
            try rows.bind([])
            var updates: [[SQLiteValue]] = []
            while try rows.step() {
                let apnsID = String(decoding: rows.bytes(1), as: UTF8.self)
                let token: String? = rows.isNull(2) ? nil : String(decoding: rows.bytes(2), as: UTF8.self)
                updates.append([
                    SQLiteLookupKey.apnsID(apnsID), token.map(SQLiteLookupKey.token) ?? .null, .integer(rows.int64(0)),
                ])
            }
            let update = try connection.prepare("UPDATE deliveries SET apns_key = ?, token_key = ? WHERE id = ?")
            for values in updates { try update.run(values) }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}

/// The 64-bit keys of the version-2 indexes: FNV-1a 64 of the text's UTF-8 bytes. The apns-id's is taken over its
/// ASCII-lower-cased bytes, as SQLite's `COLLATE NOCASE` (which its lookup keeps) folds ASCII letters only.
enum SQLiteLookupKey {
    static func apnsID(_ text: String) -> SQLiteValue { .integer(hash(text, foldingASCIICase: true)) }

    static func token(_ text: String) -> SQLiteValue { .integer(hash(text, foldingASCIICase: false)) }

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
