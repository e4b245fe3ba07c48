/// The table the SQLite store keeps. Filterable fields are columns (with indexes for the lookups the admin API and
/// retention make); the whole record is a JSON blob, so new record fields need no migration.
enum SQLiteSchema {
    static let version = 1

    static let create = """
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
            record BLOB NOT NULL
        );
        CREATE INDEX IF NOT EXISTS deliveries_apns_id ON deliveries(apns_id COLLATE NOCASE);
        CREATE INDEX IF NOT EXISTS deliveries_token ON deliveries(token);
        CREATE INDEX IF NOT EXISTS deliveries_received_at ON deliveries(received_at);
        PRAGMA user_version = \(version);
        """

    static let insert = """
        INSERT INTO deliveries(id, received_at, apns_id, token, topic, push_type, status, reason, search, record)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
}
