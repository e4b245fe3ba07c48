import APNSCore
import Foundation

/// The query side of the SQLite store: turns a `DeliveryQuery` into SQL and rows back into records. Owns one
/// connection; callers serialize access (the store keeps it in a mutex).
final class SQLiteDeliveryReader {
    private let connection: SQLiteConnection
    /// Whether the file has the version-2 lookup keys (`SQLiteSchema`); a version-1 file that only an archive
    /// reads (never migrated) is queried through its text indexes.
    let usesLookupKeys: Bool

    init(connection: SQLiteConnection) throws(DeliveryStoreError) {
        self.connection = connection
        usesLookupKeys = try SQLiteSchema.hasLookupKeys(connection)
    }

    func deliveries(_ query: DeliveryQuery) throws(DeliveryStoreError) -> [DeliveryRecord] {
        var clauses: [String] = []
        var values: [SQLiteValue] = []
        func add(_ clause: String, _ value: SQLiteValue) {
            clauses.append(clause)
            values.append(value)
        }
        if let afterID = query.afterID { add("id > ?", .integer(afterID)) }
        if let beforeID = query.beforeID { add("id < ?", .integer(beforeID)) }
        let filter = query.filter
        if let token = filter.token {
            if usesLookupKeys { add("token_key = ?", SQLiteLookupKey.token(token)) }
            add("token = ?", .text(token))
        }
        if let topic = filter.topic { add("topic = ?", .text(topic)) }
        if let pushType = filter.pushType { add("push_type = ?", .text(pushType)) }
        if let status = filter.status { add("status = ?", .integer(Int64(status))) }
        if let reason = filter.reason { add("reason = ?", .text(reason)) }
        if let accepted = filter.accepted { clauses.append(accepted ? "status = 200" : "status <> 200") }
        if let since = filter.since { add("received_at >= ?", .integer(since.nanosecondsSinceEpoch)) }
        if let until = filter.until { add("received_at < ?", .integer(until.nanosecondsSinceEpoch)) }
        if let device = filter.device {
            clauses.append(device.sqlCondition("json_extract(CAST(record AS TEXT), '$.liveActivity.code')"))
        }
        let whereClause = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
        let order = query.order == .newestFirst ? "DESC" : "ASC"
        let limit = max(0, query.limit)
        guard let text = filter.text, !text.isEmpty else {
            values.append(.integer(Int64(limit)))
            return try records("SELECT id, record FROM deliveries\(whereClause) ORDER BY id \(order) LIMIT ?", values)
        }
        // Free text is matched here, not in SQL: rows keep no search text (it was a third of every row written on
        // the request path), so the rows the other clauses select are read in order until `limit` match.
        let query = text.lowercased()
        return try records(
            "SELECT id, record FROM deliveries\(whereClause) ORDER BY id \(order)", values, limit: limit,
            where: { json in DeliveryRecord.storedJSON(json, mayMatchSearch: query) }, then: filter.matches)
    }

    func delivery(id: Int64) throws(DeliveryStoreError) -> DeliveryRecord? {
        try records("SELECT id, record FROM deliveries WHERE id = ?", [.integer(id)]).first
    }

    func delivery(apnsID: String) throws(DeliveryStoreError) -> DeliveryRecord? {
        guard usesLookupKeys else {
            return try records(
                "SELECT id, record FROM deliveries WHERE apns_id = ? COLLATE NOCASE ORDER BY id DESC LIMIT 1",
                [.text(apnsID)]
            ).first
        }
        return try records(
            "SELECT id, record FROM deliveries WHERE apns_key = ? AND apns_id = ? COLLATE NOCASE "
                + "ORDER BY id DESC LIMIT 1",
            [SQLiteLookupKey.apnsID(apnsID), .text(apnsID)]
        ).first
    }

    func count() throws(DeliveryStoreError) -> Int {
        Int(try integer("SELECT count(*) FROM deliveries"))
    }

    func maxID() throws(DeliveryStoreError) -> Int64 {
        try integer("SELECT coalesce(max(id), 0) FROM deliveries")
    }

    private func integer(_ sql: String) throws(DeliveryStoreError) -> Int64 {
        let statement = try connection.prepare(sql)
        try statement.bind([])
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    /// The records of the rows `sql` selects (columns id, record), keeping those whose JSON passes `prefilter` and
    /// that then pass `filter`, until `limit` are kept.
    private func records(
        _ sql: String, _ values: [SQLiteValue], limit: Int = .max,
        where prefilter: ([UInt8]) -> Bool = { _ in true }, then filter: (DeliveryRecord) -> Bool = { _ in true }
    ) throws(DeliveryStoreError) -> [DeliveryRecord] {
        let statement = try connection.prepare(sql)
        try statement.bind(values)
        var result: [DeliveryRecord] = []
        while result.count < limit, try statement.step() {
            let id = statement.int64(0)
            let json = statement.bytes(1)
            guard prefilter(json) else { continue }
            do {
                let record = try DeliveryRecord(jsonBytes: json)
                if filter(record) { result.append(record.withID(id)) }
            } catch {
                throw .corruptRecord(id: id, detail: "\(error)")
            }
        }
        statement.reset()
        return result
    }
}
