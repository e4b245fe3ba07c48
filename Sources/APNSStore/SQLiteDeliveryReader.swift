import APNSCore
import Foundation

/// The query side of the SQLite store: turns a `DeliveryQuery` into SQL and rows back into records. Owns one
/// connection; callers serialize access (the store keeps it in a mutex).
final class SQLiteDeliveryReader {
    private let connection: SQLiteConnection
    /// The store's in-memory index of the lookup keys (`SQLiteLookupKey`). An archive has none: it filters on the
    /// key columns in SQL, by scanning (a command-line read, not the request path).
    private let lookups: SQLiteLookupIndex?

    /// Rowids per `IN (...)` statement when reading an index's candidate rows.
    static let candidateChunk = 256

    /// The rows the last `deliveries` left out because their record could not be decoded, oldest first.
    private(set) var skipped: [UndecodableDelivery] = []

    init(connection: SQLiteConnection, lookups: SQLiteLookupIndex? = nil) throws(DeliveryStoreError) {
        self.connection = connection
        self.lookups = lookups
    }

    /// Runs `body` in one read transaction, with the file's blocks and hidden rows as of its snapshot: a read of
    /// several blocks sees one state of the file, and hides exactly the rows retention had retired in it.
    private func inSnapshot<T>(_ body: (SQLiteBlocks) throws(DeliveryStoreError) -> T) throws(DeliveryStoreError) -> T {
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        var blocks = try SQLiteBlocks(connection)
        try blocks.hideRetired(maxCount: try SQLiteSchema.storedMaxCount(connection), in: connection)
        return try body(blocks)
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
        var candidates: [Int64]? = nil
        if let token = filter.token {
            if let lookups {
                candidates = lookups.rows(tokenKey: SQLiteLookupKey.tokenKey(token))
            } else {
                add("token_key = ?", SQLiteLookupKey.token(token))
            }
            add("token = ?", .text(token))
        }
        if let topic = filter.topic { add("topic = ?", .text(topic)) }
        if let pushType = filter.pushType { add("push_type = ?", .text(pushType)) }
        if let status = filter.status { add("status = ?", .integer(Int64(status))) }
        if let reason = filter.reason { add("reason = ?", .text(reason)) }
        if let accepted = filter.accepted { clauses.append(accepted ? "status = 200" : "status <> 200") }
        if let since = filter.since { add("received_at >= ?", .integer(since.nanosecondsSinceEpoch)) }
        if let until = filter.until { add("received_at < ?", .integer(until.nanosecondsSinceEpoch)) }
        // `received_at` has no index: the live store narrows the id range from the receive times
        // it keeps in memory, so SQL reads only the rows between the first and the last match.
        if let lookups, filter.since != nil || filter.until != nil,
            let bounds = lookups.idBounds(
                receivedSince: filter.since?.nanosecondsSinceEpoch, before: filter.until?.nanosecondsSinceEpoch)
        {
            if filter.since != nil { add("id >= ?", .integer(bounds.lowest)) }
            if filter.until != nil {
                clauses.append("(id <= ? OR id > ?)")
                values += [.integer(bounds.highest), .integer(bounds.lastIndexed)]
            }
        }
        if blocks.firstVisible > .min { add("id >= ?", .integer(blocks.firstVisible)) }
        let newestFirst = query.order == .newestFirst
        let order = newestFirst ? "DESC" : "ASC"
        let limit = max(0, query.limit)
        // Free text is matched here, not in SQL: rows keep no search text (it was a third of every row written on
        // the request path), so the rows the other clauses select are read in order until `limit` match. So is
        // `device` (the record's Live Activity outcome).
        let decidedInSwift = !(filter.text ?? "").isEmpty || filter.device != nil
        let confirm: (DeliveryRecord) -> Bool = { record in !decidedInSwift || filter.matches(record) }
        var result: [DeliveryRecord] = []
        guard let candidates else {
            // Block by block in the query's order, until `limit` match.
            let whereClause = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
            let limitClause = decidedInSwift ? "" : " LIMIT ?"
            for block in blocks.blocks(from: low, through: high, newestFirst: newestFirst) where result.count < limit {
                let remaining = limit - result.count
                result += try records(
                    "SELECT \(Self.columns) FROM \(block.table)\(whereClause) ORDER BY id \(order)\(limitClause)",
                    decidedInSwift ? values : values + [.integer(Int64(remaining))],
                    limit: remaining, then: confirm)
            }
            return result
        }
        // The index named the candidate rows: read them in the query's order, a chunk of rowids of one block at a
        // time, with the other clauses in SQL, until `limit` match.
        let ordered = newestFirst ? Array(candidates.reversed()) : candidates
        for block in blocks.blocks(from: low, through: high, newestFirst: newestFirst) where result.count < limit {
            let inBlock = ordered.filter { block.holds($0) && $0 >= blocks.firstVisible }
            var start = 0
            while result.count < limit, start < inBlock.count {
                let chunk = inBlock[start..<min(start + Self.candidateChunk, inBlock.count)]
                start += chunk.count
                let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let whereClause = " WHERE id IN (\(placeholders))"
                    + (clauses.isEmpty ? "" : " AND " + clauses.joined(separator: " AND "))
                result += try records(
                    "SELECT \(Self.columns) FROM \(block.table)\(whereClause) ORDER BY id \(order)",
                    chunk.map { .integer($0) } + values, limit: limit - result.count, then: confirm)
            }
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

    func delivery(apnsID: String) throws(DeliveryStoreError) -> DeliveryRecord? {
        try inSnapshot { blocks throws(DeliveryStoreError) in
            if let lookups {
                guard let row = lookups.newestRow(apnsKey: SQLiteLookupKey.apnsIDKey(apnsID)) else { return nil }
                if let block = blocks.block(holding: row), let record = try records(
                    "SELECT \(Self.columns) FROM \(block.table) WHERE id = ? AND apns_id = ? COLLATE NOCASE",
                    [.integer(row), .text(apnsID)], skipping: false
                ).first {
                    return record
                }
                // The newest row with this key holds another apns-id (a 64-bit key collision), or is hidden: ask
                // SQL, which scans.
            }
            let condition = "apns_key = ? AND apns_id = ? COLLATE NOCASE"
            let values: [SQLiteValue] = [SQLiteLookupKey.apnsID(apnsID), .text(apnsID)]
            for block in blocks.blocks(from: .min, through: .max, newestFirst: true) {
                if let record = try records(
                    "SELECT \(Self.columns) FROM \(block.table) WHERE \(condition) AND id >= ? "
                        + "ORDER BY id DESC LIMIT 1",
                    values + [.integer(blocks.firstVisible)], skipping: false
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
            for block in blocks.blocks(from: .min, through: .max, newestFirst: false) {
                // A block wholly visible is counted without reading its rows' ids (SQLite's b-tree count).
                count += try SQLiteBlocks.integer(
                    block.firstID >= blocks.firstVisible
                        ? "SELECT count(*) FROM \(block.table)" : "SELECT count(*) FROM \(block.table) WHERE id >= ?",
                    block.firstID >= blocks.firstVisible ? [] : [.integer(blocks.firstVisible)], in: connection) ?? 0
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
