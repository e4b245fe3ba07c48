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

    /// Column names come from the record's field table (`DeliveryRecord.columnFields`), in the order
    /// `EncodedDelivery.row` binds them. A new filter column also needs a line in `create` and, for existing
    /// files, a migration (bump `version`).
    static let insert: String = {
        let names = ["id"] + DeliveryRecord.columnFields.map(\.name) + ["search", "record"]
        return "INSERT INTO deliveries(\(names.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
    }()
}
