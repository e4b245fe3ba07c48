import APNSCore
import Foundation
import HTTPContract

/// `apns-mock serve --recover`: a store file that failed its check is moved aside (renamed, never deleted), and
/// every row that can still be read and decoded is copied, with its id, into a fresh file at the usual path.
///
/// The rows are read from a scratch copy of the damaged file (SQLite may write to a file it opens; the file moved
/// aside stays as it was found). Each table is scanned in id order; where SQLite stops on a damaged page, the ids
/// after the last row read are looked up one by one (each a separate descent of the b-tree, which may avoid the
/// damaged page) until a row reads again, and the scan resumes there. An id whose lookup fails, or whose record
/// does not decode, is lost; an id that reads as absent was never there (or was deleted by retention).
public enum SQLiteStoreRecovery {
    public struct Report: Sendable, Equatable {
        /// Where the damaged file is now.
        public var damagedPath: String
        public var kept: Int
        public var lost: Int
        /// The lowest lost ids (at most `StoreProblems.listLimit`).
        public var lostIDs: [Int64]
        /// What could not be read at all (the table list of a file whose first page is gone, a bad header).
        public var unreadable: [String]

        /// One line for standard error and the admin API.
        public var summary: String {
            var text = "recovered the delivery store: kept \(kept) deliver\(kept == 1 ? "y" : "ies"), lost \(lost)"
            if !lostIDs.isEmpty {
                text += " (id \(lostIDs.map(String.init).joined(separator: ", "))\(lost > lostIDs.count ? ", …" : ""))"
            }
            for problem in unreadable { text += "; \(problem)" }
            return text + "; the damaged file was moved to \(damagedPath) (not deleted)"
        }
    }

    /// Lookups past the last row read, in a table whose highest id is unknown, before giving up on it.
    static let probeLimit: Int64 = 65_536

    /// Moves the store at `path` (and its WAL and shared-memory index) aside to `path.damaged-<UTC time>`, then
    /// salvages its readable rows into a fresh store file at `path` for a store keeping `retention`.
    public static func recover(path: String, retention: RetentionPolicy) throws(DeliveryStoreError) -> Report {
        let files = FileManager.default
        let aside = try StoreFileAside.move(path, label: "damaged", at: SystemClock().now())
        let scratch = path + ".salvaging"
        for suffix in ["", "-wal", "-shm"] { try? files.removeItem(atPath: scratch + suffix) }
        defer { for suffix in ["", "-wal", "-shm"] { try? files.removeItem(atPath: scratch + suffix) } }
        do {
            for suffix in ["", "-wal"] where files.fileExists(atPath: aside + suffix) {
                try files.copyItem(atPath: aside + suffix, toPath: scratch + suffix)
            }
        } catch {
            throw .sqlite(code: 14, message: "cannot copy \(aside) to \(scratch): \(error)")
        }

        let fresh = try SQLiteConnection(path: path, mode: .readWrite)
        try fresh.execute("PRAGMA page_size=\(SQLiteSchema.pageSize)")
        try fresh.execute("PRAGMA journal_mode=WAL")
        try SQLiteSchema.prepare(fresh, maxCount: retention.maxCount)
        var salvage = Salvage(aside: aside, fresh: fresh)
        do throws(DeliveryStoreError) {
            let source = try SQLiteConnection(path: scratch, mode: .readWrite)
            // Reads past a file shorter than its header says (a truncated file) instead of refusing it whole; the
            // scratch copy is only read.
            try source.execute("PRAGMA writable_schema=ON")
            let blocks = try SQLiteBlocks(source).blocks
            for (index, block) in blocks.enumerated() {
                // The highest id the table may hold: the next table's first less one; for the last, its highest id
                // if SQLite can read it.
                let high = index + 1 < blocks.count
                    ? blocks[index + 1].firstID - 1
                    : try? SQLiteBlocks.integer("SELECT max(id) FROM \(block.table)", [], in: source)
                try salvage.copy(block, from: source, through: high)
            }
            source.close()
        } catch {
            salvage.unreadable.append("\(error)")
        }
        fresh.close()
        return salvage.report
    }

    /// The copy in progress: counts, and the tables created in the fresh file.
    private struct Salvage {
        let aside: String
        let fresh: SQLiteConnection
        var kept = 0
        var lostIDs: [Int64] = []
        var lostCount = 0
        var unreadable: [String] = []

        init(aside: String, fresh: SQLiteConnection) {
            self.aside = aside
            self.fresh = fresh
        }

        var report: Report {
            Report(damagedPath: aside, kept: kept, lost: lostCount, lostIDs: lostIDs, unreadable: unreadable)
        }

        /// What is copied of a row; the keys are computed again from the texts (`keep`).
        static let columns = ["id", "received_at", "apns_id", "token", "topic", "push_type", "status", "reason",
                              "record"]

        mutating func lose(_ id: Int64) {
            lostCount += 1
            if lostIDs.count < StoreProblems.listLimit { lostIDs.append(id) }
        }

        /// Copies the readable rows of `block` (ids up to `high`; nil: unknown) into a table of the same first id.
        mutating func copy(
            _ block: SQLiteBlocks.Block, from source: SQLiteConnection, through high: Int64?
        ) throws(DeliveryStoreError) {
            let select = Self.columns.joined(separator: ", ")
            let scan = try source.prepare("SELECT \(select) FROM \(block.table) WHERE id >= ? ORDER BY id")
            let lookup = try source.prepare("SELECT \(select) FROM \(block.table) WHERE id = ?")
            var insert: SQLiteConnection.Statement?
            try fresh.execute("BEGIN IMMEDIATE")
            do throws(DeliveryStoreError) {
                var next = block.firstID == .min ? Int64.min : block.firstID
                /// Ids whose lookup failed since the last row read: lost once a later row shows they were inside the
                /// table (or the table's highest id is known).
                var failed: [Int64] = []
                scanning: while true {
                    do throws(DeliveryStoreError) {
                        try scan.bind([.integer(next)])
                        while try scan.step() {
                            let id = scan.int64(0)
                            try keep(scan, id: id, into: &insert, table: block)
                            next = id + 1
                        }
                        break scanning
                    } catch where error.isDamage {
                        scan.reset()
                    }
                    // The scan stopped on a damaged page: look the ids up one by one until a row reads again.
                    var probed: Int64 = 0
                    while true {
                        if let high, next > high { break scanning }
                        if high == nil && probed >= SQLiteStoreRecovery.probeLimit { break scanning }
                        probed += 1
                        let id = next
                        next += 1
                        do throws(DeliveryStoreError) {
                            try lookup.bind([.integer(id)])
                            let found = try lookup.step()
                            if found {
                                for lostID in failed { lose(lostID) }
                                failed.removeAll()
                                try keep(lookup, id: id, into: &insert, table: block)
                            }
                            lookup.reset()
                            if found { continue scanning }
                        } catch where error.isDamage {
                            lookup.reset()
                            failed.append(id)
                        }
                    }
                }
                if high != nil {
                    for lostID in failed { lose(lostID) }
                } else if let first = failed.first {
                    unreadable.append(
                        "the ids after \(first - 1) in \(block.table) could not be read (how many there were is unknown)")
                }
                try fresh.execute("COMMIT")
            } catch {
                try? fresh.execute("ROLLBACK")
                throw error
            }
        }

        /// Copies the row `statement` is on if its record decodes; loses it otherwise.
        private mutating func keep(
            _ statement: SQLiteConnection.Statement, id: Int64, into insert: inout SQLiteConnection.Statement?,
            table block: SQLiteBlocks.Block
        ) throws(DeliveryStoreError) {
            let values = (0..<Int32(Self.columns.count)).map(statement.value)
            guard case .blob(let stored) = values[8].asBlob,
                (try? SQLiteStoredRecord.record(stored, id: id, receivedAt: statement.int64(1))) != nil
            else {
                lose(id)
                return
            }
            if insert == nil {
                let table = block.table
                try fresh.execute(SQLiteSchema.createTable(named: table))
                let names = Self.columns + SQLiteSchema.keyColumns
                insert = try fresh.prepare(
                    "INSERT INTO \(table)(\(names.joined(separator: ", "))) VALUES ("
                        + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")")
            }
            let apnsID: SQLiteValue = if case .text(let text) = values[2] { SQLiteLookupKey.apnsID(text) } else { .null }
            let token: SQLiteValue = if case .text(let text) = values[3] { SQLiteLookupKey.token(text) } else { .null }
            try insert?.run(values + [apnsID, token])
            kept += 1
        }
    }
}

extension SQLiteValue {
    /// A blob's bytes, or a text's (a record column is declared BLOB; SQLite keeps what it was given).
    fileprivate var asBlob: SQLiteValue {
        if case .text(let text) = self { return .blob(Array(text.utf8)) }
        return self
    }
}
