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
    /// With an age limit, a new block also starts once a row arrives this long after the current block's first
    /// (a sixteenth of `maxAge`, at least a second): age retention drops whole blocks, so a row outlives `maxAge` by
    /// at most about this (`applyRetention`). `Int64.max`: no age limit.
    private let blockSpan: Int64
    /// The receive time of the current block's first row plus `blockSpan`: an append received from then on starts
    /// a new block.
    private var nextBlockTime = Int64.max
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
        connection: SQLiteConnection, checkpointer: SQLiteCheckpointer,
        retention: RetentionPolicy, clock: any WallClock, signal: DurableSignal, syncOnRestart: Bool,
        blockSize: Int64? = nil
    ) throws(DeliveryStoreError) {
        self.syncOnRestart = syncOnRestart
        self.connection = connection
        self.checkpointer = checkpointer
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
        blockSpan = retention.maxAge.map { max($0.nanoseconds / 16, 1_000_000_000) } ?? .max
        self.retention = retention
        self.clock = clock
        self.signal = signal
        try reloadBlocks()
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
    /// dropped some) and prepares the inserts into the last one. A new block starts with the next append: a block's
    /// range ends where the next begins, so appends may go on in the last block only up to `blockSize` ids from its
    /// first, which is all `nextBlockStart` says.
    private func reloadBlocks() throws(DeliveryStoreError) {
        let found = try SQLiteBlocks(connection)
        blocks = found.blocks.map(\.firstID)
        inserts = try found.blocks.last.map { last throws(DeliveryStoreError) in
            try BlockInserts(connection, table: last.table)
        }
        nextBlockStart = blocks.last.map { $0 + blockSize } ?? .min
        nextBlockTime = .max
        if let last = found.blocks.last, blockSpan < .max,
            let first = try SQLiteBlocks.integer(
                "SELECT received_at FROM \(last.table) ORDER BY id LIMIT 1", [], in: connection)
        {
            nextBlockTime = first.addingReportingOverflow(blockSpan).overflow ? .max : first + blockSpan
        }
    }

    /// Creates the block starting at `row` (in the writer's transaction) and points the inserts at it. First drops
    /// the blocks count retention retires once `row` is committed: a DROP (like a CREATE) changes the schema, which
    /// expires every prepared statement, so dropping here, before the new block's inserts are prepared, spares
    /// re-preparing them (SQLite parses a 16-row insert again: ~0.5 M instructions). For the same reason the block
    /// ends early where that lets the next count drop come with the next block's start (with the default limit,
    /// a sixteenth of it per block, one id early once).
    private func startBlock(at row: EncodedDelivery) throws(DeliveryStoreError) {
        let id = row.id
        try dropBlocks(SQLiteBlocks.retired(blocks, lastID: id, maxCount: retention.maxCount))
        let table = SQLiteSchema.blockTable(firstID: id)
        try connection.execute(SQLiteSchema.createTable(named: table))
        inserts = try BlockInserts(connection, table: table)
        blocks.append(id)
        nextBlockStart = id + blockSize
        // The id at which the oldest block's drop falls due (`SQLiteBlocks.retired`).
        if blocks.count >= 2 {
            let due = blocks[1] + Int64(retention.maxCount) - 1
            if due < nextBlockStart, due > id + blockSize / 2 { nextBlockStart = due }
        }
        let (time, overflow) = row.receivedAt.addingReportingOverflow(blockSpan)
        nextBlockTime = overflow ? .max : time
    }

    /// Drops every block (a reset); returns how many rows they held (this transaction's appends before the reset
    /// included).
    private func dropAllBlocks() throws(DeliveryStoreError) -> Int {
        var rows = 0
        for firstID in blocks {
            let table = SQLiteSchema.blockTable(firstID: firstID)
            rows += Int(try SQLiteBlocks.integer("SELECT count(*) FROM \(table)", [], in: connection) ?? 0)
        }
        try dropBlocks(blocks.count)
        return rows
    }

    /// Drops the `count` oldest blocks. Dropping the last block (a reset, or age retention) leaves none: the next
    /// append starts one.
    private func dropBlocks(_ count: Int) throws(DeliveryStoreError) {
        for firstID in blocks.prefix(count) {
            try connection.execute("DROP TABLE \(SQLiteSchema.blockTable(firstID: firstID))")
        }
        blocks.removeFirst(count)
        if blocks.isEmpty {
            inserts = nil
            nextBlockStart = .min
            nextBlockTime = .max
        }
    }

    /// Runs until the queue is closed and drained; then stops the checkpointer, empties the WAL into the file and
    /// closes the connection.
    func run(_ queue: WriterQueue) {
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
        let outcome: Result<Void, DeliveryStoreError>
        do throws(DeliveryStoreError) {
            try beginTransaction.run()
            for command in batch {
                switch command {
                case .append(let row, _):
                    if row.id >= nextBlockStart || row.receivedAt >= nextBlockTime {
                        try insertPendingRows()  // into the block they belong to
                        try startBlock(at: row)
                    }
                    pendingRows.append(row.row)
                    if pendingRows.count == SQLiteSchema.rowsPerInsert { try insertPendingRows() }
                    highestID = row.id
                case .reset:
                    try insertPendingRows()  // what was queued before the reset goes with it
                    resetCounts.append(try dropAllBlocks())
                case .barrier:
                    break
                }
            }
            try insertPendingRows()
            try applyRetention(lastID: highestID)
            try commitTransaction.run()
            outcome = .success(())
        } catch {
            pendingRows.removeAll(keepingCapacity: true)
            try? connection.execute("ROLLBACK")
            outcome = .failure(error)
            // The rollback undid any block this transaction created or dropped.
            try? reloadBlocks()
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

    /// Count retention: drops the oldest blocks while the rest still hold `maxCount` ids (`SQLiteBlocks.retired`),
    /// so the file keeps between `maxCount` and `maxCount` + one block of rows. Age retention (at most once a second):
    /// drops the oldest blocks whose newest row was received before `now - maxAge`, the last block too, so a row is
    /// kept at least `maxAge` and at most about `maxAge` + `blockSpan` (while pushes come: the sweep runs at a
    /// commit). No row is deleted on its own.
    private func applyRetention(lastID: Int64) throws(DeliveryStoreError) {
        if lastID > 0 {
            try dropBlocks(SQLiteBlocks.retired(blocks, lastID: lastID, maxCount: retention.maxCount))
        }
        guard let maxAge = retention.maxAge else { return }
        let now = clock.now()
        guard now.nanosecondsSinceEpoch - lastAgeSweep.nanosecondsSinceEpoch >= 1_000_000_000 else { return }
        lastAgeSweep = now
        let cutoff = now.nanosecondsSinceEpoch - maxAge.nanoseconds
        var expired = 0
        while expired < blocks.count, try everyRowReceived(inBlock: blocks[expired], before: cutoff) {
            expired += 1
        }
        try dropBlocks(expired)
    }

    /// Whether every row of the block starting at `firstID` was received before `cutoff`. Rows are appended in
    /// receive order, so the block's last row is usually its newest; that is checked, not assumed (a clock that
    /// stepped back): only when the last row is older than `cutoff` are all the block's receive times read.
    private func everyRowReceived(inBlock firstID: Int64, before cutoff: Int64) throws(DeliveryStoreError) -> Bool {
        let table = SQLiteSchema.blockTable(firstID: firstID)
        guard let last = try SQLiteBlocks.integer(
            "SELECT received_at FROM \(table) ORDER BY id DESC LIMIT 1", [], in: connection)
        else { return true }  // empty
        guard last < cutoff else { return false }
        return try SQLiteBlocks.integer("SELECT max(received_at) FROM \(table)", [], in: connection) ?? last < cutoff
    }
}

extension Duration {
    /// Whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }
}
