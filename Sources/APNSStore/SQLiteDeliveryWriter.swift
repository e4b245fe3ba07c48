import APNSCore
import Foundation

/// The single writer of the SQLite store. Runs on its own thread: takes every queued command, executes them in one
/// transaction (group commit), applies retention, commits, then reports. Owns its connection exclusively; the WAL
/// is copied back into the file by `SQLiteCheckpointer`, never on this thread (but for a runaway WAL).
final class SQLiteDeliveryWriter: @unchecked Sendable {
    // Used only on the writer thread after `init`.
    private let connection: SQLiteConnection
    /// The inserts into the current block (nil: no block yet).
    private var inserts: BlockInserts?
    /// The first id of each block in the file, oldest first (`SQLiteSchema`).
    private var blocks: [Int64] = []
    /// The id that starts the next block (`Int64.min`: the next append starts one).
    private var nextBlockStart = Int64.min
    /// Ids per block (`SQLiteSchema.blockSize`).
    private let blockSize: Int64
    /// The lowest id count retention keeps after the last commit: the rows below it are hidden from every read
    /// until their block is dropped.
    private var firstVisible = Int64.min
    /// Rows visible at the last commit that this transaction's block drops took (`dropBlocks`).
    private var retiredInTransaction = 0
    /// The rows of the group not yet inserted (fewer than `rowsPerInsert`); kept for its capacity.
    private var pendingRows: [SQLiteRow] = []
    /// Each transaction's BEGIN and COMMIT, prepared once (`execute` parsed them again for every group).
    private let beginTransaction: SQLiteConnection.Statement
    private let commitTransaction: SQLiteConnection.Statement
    private let retention: RetentionPolicy
    private let clock: any WallClock
    private let signal: DurableSignal
    private var lastAgeSweep = Timestamp.zero
    private let checkpointer: SQLiteCheckpointer
    private let lookups: SQLiteLookupIndex
    private var framesAtLastRequest = 0
    /// WAL bytes between checkpoint requests: 4 MiB, so that little is left to copy when the writer restarts the WAL
    /// (the pushes queued behind it wait for that copy: 16 MiB left 50–90 ms pauses, the p99 of a durable run).
    static let bytesPerCheckpoint = 4 << 20
    /// WAL bytes past which the writer restarts the WAL itself (48 MiB, under `journal_size_limit`'s 64 MiB with room
    /// for the commits that find the checkpointer busy and retry).
    static let restartBytes = 48 << 20
    /// Whether the writer's WAL restart fsyncs (a power-loss store). A process-crash store's restart does not: the
    /// pages it copies are in the page cache, which survives the process, and the checkpointer's next checkpoint
    /// fsyncs the file; an fsync there held every queued push for tens of milliseconds on this machine.
    private let syncOnRestart: Bool
    /// The same in WAL frames (a page and its 24-byte header) of this file's page size.
    private let framesPerCheckpoint: Int
    private let restartFrames: Int

    init(
        connection: SQLiteConnection, checkpointer: SQLiteCheckpointer, lookups: SQLiteLookupIndex,
        retention: RetentionPolicy, clock: any WallClock, signal: DurableSignal, syncOnRestart: Bool,
        blockSize: Int64? = nil
    ) throws(DeliveryStoreError) {
        self.syncOnRestart = syncOnRestart
        self.connection = connection
        self.checkpointer = checkpointer
        self.lookups = lookups
        let pageSize = try connection.prepare("PRAGMA page_size")
        try pageSize.bind([])
        let frameBytes = Int(try pageSize.step() ? pageSize.int64(0) : 4096) + 24
        pageSize.reset()
        framesPerCheckpoint = Self.bytesPerCheckpoint / frameBytes
        restartFrames = Self.restartBytes / frameBytes
        connection.trackWALFrames()
        pendingRows.reserveCapacity(SQLiteSchema.rowsPerInsert)
        beginTransaction = try connection.prepare("BEGIN IMMEDIATE")
        commitTransaction = try connection.prepare("COMMIT")
        self.blockSize = blockSize ?? SQLiteSchema.blockSize(maxCount: retention.maxCount)
        self.retention = retention
        self.clock = clock
        self.signal = signal
        let found = try reloadBlocks()
        if !found.blocks.isEmpty {
            firstVisible = SQLiteBlocks.firstVisible(maxID: try found.maxID(connection), maxCount: retention.maxCount)
        }
    }

    /// The statements that insert into one block: 1 row, and 2, 4, 8 … `SQLiteSchema.rowsPerInsert` rows at once.
    private struct BlockInserts {
        let one: SQLiteConnection.Statement
        let many: [(rows: Int, statement: SQLiteConnection.Statement)]

        init(_ connection: SQLiteConnection, table: String) throws(DeliveryStoreError) {
            one = try connection.prepare(SQLiteSchema.insert(rowCount: 1, into: table))
            var many: [(rows: Int, statement: SQLiteConnection.Statement)] = []
            var rows = SQLiteSchema.rowsPerInsert
            while rows > 1 {
                many.append((rows, try connection.prepare(SQLiteSchema.insert(rowCount: rows, into: table))))
                rows /= 2
            }
            self.many = many
        }
    }

    /// Reads the blocks from the file (at `init`, and after a rolled-back transaction, which may have created or
    /// dropped some), prepares the inserts into the last one, and returns what it read. A new block starts with the
    /// next append: a block's range ends where the next begins, so appends may go on in the last block only up to
    /// `blockSize` ids from its first, which is all `nextBlockStart` says.
    private func reloadBlocks() throws(DeliveryStoreError) -> SQLiteBlocks {
        let found = try SQLiteBlocks(connection)
        blocks = found.blocks.map(\.firstID)
        inserts = try found.blocks.last.map { last throws(DeliveryStoreError) in
            try BlockInserts(connection, table: last.table)
        }
        nextBlockStart = blocks.last.map { $0 + blockSize } ?? .min
        return found
    }

    /// Creates the block starting at `id` (in the writer's transaction) and points the inserts at it. First drops
    /// the blocks count retention retires once `id` is committed: a DROP (like a CREATE) changes the schema, which
    /// expires every prepared statement, so dropping here, before the new block's inserts are prepared, spares
    /// re-preparing them at the next commit (SQLite parses a 16-row insert again: ~0.5 M instructions).
    private func startBlock(at id: Int64) throws(DeliveryStoreError) {
        try dropBlocks(below: SQLiteBlocks.firstVisible(maxID: id, maxCount: retention.maxCount))
        let table = SQLiteSchema.blockTable(firstID: id)
        try connection.execute(SQLiteSchema.createTable(named: table))
        inserts = try BlockInserts(connection, table: table)
        blocks.append(id)
        nextBlockStart = id + blockSize
    }

    /// Drops every block (a reset); returns how many rows it deleted: those visible at the last commit, and this
    /// transaction's appends, including the rows of blocks dropped since (`retiredInTransaction`).
    private func dropAllBlocks() throws(DeliveryStoreError) -> Int {
        var count = retiredInTransaction
        retiredInTransaction = 0
        for table in blockTables {
            count += try visibleRows(in: table)
            try connection.execute("DROP TABLE \(table)")
        }
        blocks.removeAll()
        inserts = nil
        nextBlockStart = .min
        return count
    }

    /// Drops the blocks (never the last) whose every id is below `firstKept`. Counts in `retiredInTransaction` the
    /// rows they held that were visible at the last commit (a reset later in the transaction reports them).
    private func dropBlocks(below firstKept: Int64) throws(DeliveryStoreError) {
        var dropped = 0
        while dropped + 1 < blocks.count, blocks[dropped + 1] <= firstKept {
            let table = SQLiteSchema.blockTable(firstID: blocks[dropped])
            if blocks[dropped + 1] > firstVisible { retiredInTransaction += try visibleRows(in: table) }
            try connection.execute("DROP TABLE \(table)")
            dropped += 1
        }
        if dropped > 0 { blocks.removeFirst(dropped) }
    }

    /// How many of `table`'s rows were visible at the last commit.
    private func visibleRows(in table: String) throws(DeliveryStoreError) -> Int {
        Int(
            try SQLiteBlocks.integer(
                "SELECT count(*) FROM \(table) WHERE id >= ?", [.integer(firstVisible)], in: connection) ?? 0)
    }

    /// The block tables, oldest first.
    private var blockTables: [String] { blocks.map(SQLiteSchema.blockTable(firstID:)) }

    /// Fills the lookup index from the file, then runs until the queue is closed and drained; then stops the
    /// checkpointer, empties the WAL into the file and closes the connection. (Lookups wait for the index; pushes
    /// queue meanwhile and their 200s wait for their commit, as always.)
    func run(_ queue: WriterQueue) {
        do {
            try lookups.load(from: connection, firstVisible: firstVisible)
        } catch {
            // The rows stay readable through SQL; only the index's lookups miss them.
            FileHandle.standardError.write(Data("apns-mock: cannot read the store's lookup keys: \(error)\n".utf8))
        }
        while let batch = queue.takeBatch() {
            commit(batch)
        }
        checkpointer.close()
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
    }

    private func commit(_ batch: [WriterCommand]) {
        var resetCounts: [Int] = []
        var highestID: Int64 = 0
        // The rows to index once committed: those after the batch's last reset (a reset deletes what came before).
        var indexed: [SQLiteLookupIndex.Entry] = []
        indexed.reserveCapacity(batch.count)
        var firstKept: Int64?
        let visibleBefore = firstVisible
        retiredInTransaction = 0
        let outcome: Result<Void, DeliveryStoreError>
        do throws(DeliveryStoreError) {
            try beginTransaction.run()
            for command in batch {
                switch command {
                case .append(let row, _):
                    if row.id >= nextBlockStart {
                        try insertPendingRows()  // into the block they belong to
                        try startBlock(at: row.id)
                    }
                    pendingRows.append(row.row)
                    if pendingRows.count == SQLiteSchema.rowsPerInsert { try insertPendingRows() }
                    highestID = row.id
                    indexed.append(
                        .init(id: row.id, apnsKey: row.apnsKey, tokenKey: row.tokenKey, receivedAt: row.receivedAt))
                case .reset:
                    try insertPendingRows()  // what was queued before the reset goes with it
                    resetCounts.append(try dropAllBlocks())
                    indexed.removeAll()
                case .barrier:
                    break
                }
            }
            try insertPendingRows()
            firstKept = try applyRetention(lastID: highestID, committing: indexed)
            try commitTransaction.run()
            outcome = .success(())
        } catch {
            pendingRows.removeAll(keepingCapacity: true)
            try? connection.execute("ROLLBACK")
            outcome = .failure(error)
            // The rollback undid any block this transaction created or dropped, and what it hid.
            _ = try? reloadBlocks()
            firstVisible = visibleBefore
        }
        if case .success = outcome {
            // Before the completions: whoever gets a 200 can look the record up at once.
            if !resetCounts.isEmpty { lookups.removeAll() }
            lookups.add(indexed)
            if let firstKept { lookups.dropRows(below: firstKept) }
        }
        if highestID > 0 { signal.advance(to: highestID) }
        report(batch, outcome: outcome, resetCounts: resetCounts)
        checkpointIfDue()
    }

    /// Inserts `pendingRows` with as few statements as the sizes allow (a full set in one; 13 rows as 8 + 4 + 1).
    private func insertPendingRows() throws(DeliveryStoreError) {
        defer { pendingRows.removeAll(keepingCapacity: true) }
        guard !pendingRows.isEmpty, let inserts else { return }
        var start = 0
        for (rows, statement) in inserts.many where pendingRows.count - start >= rows {
            try statement.run(rows: pendingRows[start..<start + rows])
            start += rows
        }
        if start < pendingRows.count { try inserts.one.run(pendingRows[start]) }
    }

    /// After a commit (and its answers): asks the checkpointer for a passive checkpoint every `bytesPerCheckpoint`
    /// of WAL, and restarts the WAL here once it passes `restartBytes` (under sustained load passive
    /// checkpoints never catch up with the writer; the restart then copies only what they have not).
    private func checkpointIfDue() {
        let frames = connection.walFrames
        if frames < framesAtLastRequest { framesAtLastRequest = 0 }  // the WAL was restarted
        if frames >= restartFrames {
            if syncOnRestart {
                try? connection.execute("PRAGMA wal_checkpoint(RESTART)")
            } else {
                try? connection.execute("PRAGMA synchronous=OFF")
                try? connection.execute("PRAGMA wal_checkpoint(RESTART)")  // busy while a checkpoint runs: retried
                try? connection.execute("PRAGMA synchronous=NORMAL")
            }
            framesAtLastRequest = 0
        } else if frames - framesAtLastRequest >= framesPerCheckpoint {
            framesAtLastRequest = frames
            checkpointer.request()
        }
    }

    private func report(_ batch: [WriterCommand], outcome: Result<Void, DeliveryStoreError>, resetCounts: [Int]) {
        var resets = resetCounts.makeIterator()
        for command in batch {
            switch (command, outcome) {
            case (.append(let row, let completion), .success): completion(.success(row.id))
            case (.append(_, let completion), .failure(let error)): completion(.failure(error))
            case (.reset(let completion), .success): completion(.success(resets.next() ?? 0))
            case (.reset(let completion), .failure(let error)): completion(.failure(error))
            case (.barrier(let completion), _): completion()
            }
        }
    }

    /// Keeps the newest `maxCount` records (hides the older ones, drops the blocks they fill), and (at most once a
    /// second) deletes those older than `maxAge`. Returns the lowest id that may remain when rows were hidden or
    /// deleted (the lookup index forgets those below it). `rows` are this transaction's appends, not yet in the
    /// lookup index.
    private func applyRetention(
        lastID: Int64, committing rows: [SQLiteLookupIndex.Entry]
    ) throws(DeliveryStoreError) -> Int64? {
        var firstKept: Int64?
        if lastID > 0 {
            let floor = SQLiteBlocks.firstVisible(maxID: lastID, maxCount: retention.maxCount)
            // The blocks this floor retires go when the next block starts (`startBlock`).
            if floor > firstVisible {
                firstVisible = floor
                if floor > 1 { firstKept = floor }  // ids start at 1: a lower floor hides nothing
            }
        }
        if let maxAge = retention.maxAge {
            let now = clock.now()
            guard now.nanosecondsSinceEpoch - lastAgeSweep.nanosecondsSinceEpoch >= 1_000_000_000 else {
                return firstKept
            }
            lastAgeSweep = now
            let cutoff = now.nanosecondsSinceEpoch - maxAge.nanoseconds
            if try deleteReceived(before: cutoff, committing: rows) > 0 {
                try deleteHiddenRowsOfLastRetiringBlock()
                let lowest = try lowestVisibleID()
                firstKept = max(firstKept ?? 0, lowest)
                try dropBlocks(below: lowest)
            }
        }
        return firstKept
    }
}

extension SQLiteDeliveryWriter {
    /// Deletes the visible rows received before `cutoff`; returns how many. The file has no `received_at` index
    /// (keeping one cost every insert an index entry and every retention delete a second b-tree
    /// delete), so the rows are found from the receive times the lookup index keeps, plus this transaction's `rows`:
    /// one `DELETE … WHERE id <= ?` per block for the oldest ones, and one per row received out of order (the clock
    /// stepped back), the same rows SQL's `received_at < cutoff` selects. Without a complete lookup index, SQL scans
    /// every block.
    fileprivate func deleteReceived(
        before cutoff: Int64, committing rows: [SQLiteLookupIndex.Entry]
    ) throws(DeliveryStoreError) -> Int {
        var deleted = 0
        guard lookups.isComplete else {
            for firstID in blocks {
                deleted += try delete(
                    from: firstID, "received_at < ? AND id >= ?", [.integer(cutoff), .integer(firstVisible)])
            }
            return deleted
        }
        let (throughID, others) = lookups.expiredRows(receivedBefore: cutoff)
        if let throughID {
            for firstID in blocks where firstID <= throughID {
                deleted += try delete(
                    from: firstID, "id >= ? AND id <= ?", [.integer(firstVisible), .integer(throughID)])
            }
        }
        let outOfOrder = others + rows.filter { $0.receivedAt < cutoff }.map(\.id)
        for id in outOfOrder where id >= firstVisible {
            guard let firstID = blocks.last(where: { $0 <= id }) else { continue }
            deleted += try delete(from: firstID, "id = ?", [.integer(id)])
        }
        return deleted
    }

    /// Deletes the rows count retention hid in the block that holds the first visible id. The age sweep calls it
    /// once it has deleted visible rows: the hidden ones are older still, and the blocks wholly below go with `dropBlocks`. Were that block the last, and every visible row
    /// expired, the file's highest id would fall to a hidden row and reads would show the hidden rows again (a count
    /// limit below the block size, `SQLiteSchema.blockSize`).
    fileprivate func deleteHiddenRowsOfLastRetiringBlock() throws(DeliveryStoreError) {
        guard let firstID = blocks.last(where: { $0 < firstVisible }) else { return }
        _ = try delete(from: firstID, "id < ?", [.integer(firstVisible)])
    }

    /// Runs `DELETE … WHERE condition` in the block starting at `firstID`; returns how many rows went.
    private func delete(
        from firstID: Int64, _ condition: String, _ values: [SQLiteValue]
    ) throws(DeliveryStoreError) -> Int {
        let table = SQLiteSchema.blockTable(firstID: firstID)
        try connection.prepare("DELETE FROM \(table) WHERE \(condition)").run(values)
        return connection.changes
    }

    /// The lowest visible id left in the file (`Int64.max`: none).
    fileprivate func lowestVisibleID() throws(DeliveryStoreError) -> Int64 {
        for table in blockTables {
            if let id = try SQLiteBlocks.integer(
                "SELECT min(id) FROM \(table) WHERE id >= ?", [.integer(firstVisible)], in: connection)
            {
                return id
            }
        }
        return .max
    }
}

extension Duration {
    /// Whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }
}
