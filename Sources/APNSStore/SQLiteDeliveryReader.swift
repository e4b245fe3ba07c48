import APNSCore
import Foundation

/// The query side of the SQLite store and of an archive: turns a `DeliveryQuery` into SQL and rows back into
/// records. Owns one connection; callers serialize access (the store keeps it in a mutex). The file has no index
/// (`SQLiteSchema`): a lookup by apns-id or token scans the blocks newest first, comparing the integer key column
/// before the text, and stops at the first match (an apns-id) or once `limit` rows match.
final class SQLiteDeliveryReader {
    private let connection: SQLiteConnection

    /// The rows the last `deliveries` left out because their record could not be decoded, oldest first.
    private(set) var skipped: [UndecodableDelivery] = []

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Runs `body` in one read transaction, with the file's blocks as of its snapshot: a read of several blocks sees
    /// one state of the file.
    private func inSnapshot<T>(_ body: (SQLiteBlocks) throws(DeliveryStoreError) -> T) throws(DeliveryStoreError) -> T {
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        return try body(try SQLiteBlocks(connection))
    }

    /// The records `query` selects; a row whose record cannot be decoded is left out and listed in `skipped`.
    func deliveries(_ query: DeliveryQuery) throws(DeliveryStoreError) -> [DeliveryRecord] {
        skipped = []
        return try inSnapshot { blocks throws(DeliveryStoreError) in try deliveries(query, in: blocks) }
    }

    /// `deliveries` with the rows it left out.
    func deliveryPage(_ query: DeliveryQuery) throws(DeliveryStoreError) -> DeliveryPage {
        let records = try deliveries(query)
        return DeliveryPage(records: records, undecodable: skipped.sorted { $0.id < $1.id })
    }

    private func deliveries(
        _ query: DeliveryQuery, in blocks: SQLiteBlocks
    ) throws(DeliveryStoreError) -> [DeliveryRecord] {
        // The ids the window allows (`afterID`/`beforeID` stay in SQL too); the blocks outside are not read.
        var low = Int64.min
        var high = Int64.max
        if let afterID = query.afterID {
            guard afterID < .max else { return [] }
            low = afterID + 1
        }
        if let beforeID = query.beforeID {
            guard beforeID > .min else { return [] }
            high = beforeID - 1
        }
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
            add("token_key = ?", SQLiteLookupKey.token(token))
            add("token = ?", .text(token))
        }
        if let topic = filter.topic { add("topic = ?", .text(topic)) }
        if let pushType = filter.pushType { add("push_type = ?", .text(pushType)) }
        if let status = filter.status { add("status = ?", .integer(Int64(status))) }
        if let reason = filter.reason { add("reason = ?", .text(reason)) }
        if let accepted = filter.accepted { clauses.append(accepted ? "status = 200" : "status <> 200") }
        if let since = filter.since { add("received_at >= ?", .integer(since.nanosecondsSinceEpoch)) }
        if let until = filter.until { add("received_at < ?", .integer(until.nanosecondsSinceEpoch)) }
        let newestFirst = query.order == .newestFirst
        let order = newestFirst ? "DESC" : "ASC"
        let limit = max(0, query.limit)
        // Free text is matched here, not in SQL: rows keep no search text (it was a third of every row written on
        // the request path), so the rows the other clauses select are read in order until `limit` match. So is
        // `device` (the record's Live Activity outcome).
        let decidedInSwift = !(filter.text ?? "").isEmpty || filter.device != nil
        let confirm: (DeliveryRecord) -> Bool = { record in !decidedInSwift || filter.matches(record) }
        // Block by block in the query's order, until `limit` match.
        let whereClause = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
        let limitClause = decidedInSwift ? "" : " LIMIT ?"
        var result: [DeliveryRecord] = []
        for block in blocks.blocks(from: low, through: high, newestFirst: newestFirst) where result.count < limit {
            let remaining = limit - result.count
            result += try records(
                "SELECT \(Self.columns) FROM \(block.table)\(whereClause) ORDER BY id \(order)\(limitClause)",
                decidedInSwift ? values : values + [.integer(Int64(remaining))],
                limit: remaining, then: confirm)
        }
        return result
    }

    func delivery(id: Int64) throws(DeliveryStoreError) -> DeliveryRecord? {
        try inSnapshot { blocks throws(DeliveryStoreError) in
            guard let block = blocks.block(holding: id) else { return nil }
            return try records(
                "SELECT \(Self.columns) FROM \(block.table) WHERE id = ?", [.integer(id)], skipping: false
            ).first
        }
    }

    /// The newest row with this apns-id (ASCII case folded, as `COLLATE NOCASE`): a scan of the blocks, newest
    /// first, that compares the key column and reads the text only where the key matches.
    func delivery(apnsID: String) throws(DeliveryStoreError) -> DeliveryRecord? {
        try inSnapshot { blocks throws(DeliveryStoreError) in
            let values: [SQLiteValue] = [SQLiteLookupKey.apnsID(apnsID), .text(apnsID)]
            for block in blocks.blocks.reversed() {
                if let record = try records(
                    "SELECT \(Self.columns) FROM \(block.table) WHERE apns_key = ? AND apns_id = ? COLLATE NOCASE "
                        + "ORDER BY id DESC LIMIT 1",
                    values, skipping: false
                ).first {
                    return record
                }
            }
            return nil
        }
    }

    func count() throws(DeliveryStoreError) -> Int {
        try inSnapshot { blocks throws(DeliveryStoreError) in
            var count: Int64 = 0
            for block in blocks.blocks {
                // SQLite's b-tree count: the rows' ids are not read.
                count += try SQLiteBlocks.integer("SELECT count(*) FROM \(block.table)", [], in: connection) ?? 0
            }
            return Int(count)
        }
    }

    /// SQLite's quick check of the file (`SQLiteStoreCheck.quickCheck`): empty when it passed.
    func quickCheck() throws(DeliveryStoreError) -> [String] {
        try SQLiteStoreCheck.quickCheck(connection)
    }

    func maxID() throws(DeliveryStoreError) -> Int64 {
        try inSnapshot { blocks throws(DeliveryStoreError) in try blocks.maxID(connection) }
    }

    /// What `records` reads of a row.
    static let columns = "id, record, received_at"

    /// The records of the rows `sql` selects (`columns`), keeping those that pass `filter`, until `limit` are kept. A row whose record cannot be decoded is left out and added
    /// to `skipped` (`skipping`: a list or a search, where one bad row must not hide the others), or thrown (a
    /// lookup of that one row).
    private func records(
        _ sql: String, _ values: [SQLiteValue], limit: Int = .max, skipping: Bool = true,
        then filter: (DeliveryRecord) -> Bool = { _ in true }
    ) throws(DeliveryStoreError) -> [DeliveryRecord] {
        let statement = try connection.prepare(sql)
        try statement.bind(values)
        defer { statement.reset() }
        var result: [DeliveryRecord] = []
        while result.count < limit, try statement.step() {
            let id = statement.int64(0)
            let stored = statement.bytes(1)
            let record: DeliveryRecord
            do {
                record = try SQLiteStoredRecord.record(stored, id: id, receivedAt: statement.int64(2))
            } catch {
                guard skipping, case .corruptRecord(_, let detail) = error else { throw error }
                skipped.append(UndecodableDelivery(id: id, error: detail))
                continue
            }
            if filter(record) { result.append(record) }
        }
        return result
    }
}
