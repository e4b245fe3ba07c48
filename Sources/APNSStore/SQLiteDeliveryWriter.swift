import APNSCore
import Foundation

/// The single writer of the SQLite store. Runs on its own thread: takes every queued command, executes them in one
/// transaction (group commit), applies retention, commits, then reports. Owns its connection exclusively; the WAL
/// is copied back into the file by `SQLiteCheckpointer`, never on this thread (but for a runaway WAL).
final class SQLiteDeliveryWriter: @unchecked Sendable {
    // Used only on the writer thread after `init`.
    private let connection: SQLiteConnection
    private let insert: SQLiteConnection.Statement
    /// Inserts of 2, 4, 8 … `SQLiteSchema.rowsPerInsert` rows at once (`insert` takes one).
    private let insertMany: [(rows: Int, statement: SQLiteConnection.Statement)]
    /// The rows of the group not yet inserted (fewer than `rowsPerInsert`); kept for its capacity.
    private var pendingRows: [SQLiteRow] = []
    /// Each transaction's BEGIN and COMMIT, prepared once (`execute` parsed them again for every group).
    private let beginTransaction: SQLiteConnection.Statement
    private let commitTransaction: SQLiteConnection.Statement
    private let deleteUpToID: SQLiteConnection.Statement
    private let deleteOlderThan: SQLiteConnection.Statement
    private let deleteID: SQLiteConnection.Statement
    private let deleteAll: SQLiteConnection.Statement
    private let lowestID: SQLiteConnection.Statement
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
        retention: RetentionPolicy, clock: any WallClock, signal: DurableSignal, syncOnRestart: Bool
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
        insert = try connection.prepare(SQLiteSchema.insert)
        var insertMany: [(rows: Int, statement: SQLiteConnection.Statement)] = []
        var rows = SQLiteSchema.rowsPerInsert
        while rows > 1 {
            insertMany.append((rows, try connection.prepare(SQLiteSchema.insert(rowCount: rows))))
            rows /= 2
        }
        self.insertMany = insertMany
        pendingRows.reserveCapacity(SQLiteSchema.rowsPerInsert)
        beginTransaction = try connection.prepare("BEGIN IMMEDIATE")
        commitTransaction = try connection.prepare("COMMIT")
        deleteUpToID = try connection.prepare("DELETE FROM deliveries WHERE id <= ?")
        deleteOlderThan = try connection.prepare("DELETE FROM deliveries WHERE received_at < ?")
        deleteID = try connection.prepare("DELETE FROM deliveries WHERE id = ?")
        deleteAll = try connection.prepare("DELETE FROM deliveries")
        lowestID = try connection.prepare("SELECT coalesce(min(id), 9223372036854775807) FROM deliveries")
        self.retention = retention
        self.clock = clock
        self.signal = signal
    }

    /// Fills the lookup index from the file, then runs until the queue is closed and drained; then stops the
    /// checkpointer, empties the WAL into the file and closes the connection. (Lookups wait for the index; pushes
    /// queue meanwhile and their 200s wait for their commit, as always.)
    func run(_ queue: WriterQueue) {
        do {
            try lookups.load(from: connection)
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
        let outcome: Result<Void, DeliveryStoreError>
        do throws(DeliveryStoreError) {
            try beginTransaction.run()
            for command in batch {
                switch command {
                case .append(let row, _):
                    pendingRows.append(row.row)
                    if pendingRows.count == SQLiteSchema.rowsPerInsert { try insertPendingRows() }
                    highestID = row.id
                    indexed.append(
                        .init(id: row.id, apnsKey: row.apnsKey, tokenKey: row.tokenKey, receivedAt: row.receivedAt))
                case .reset:
                    try insertPendingRows()  // what was queued before the reset goes with it
                    try deleteAll.run()
                    resetCounts.append(connection.changes)
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
        var start = 0
        for (rows, statement) in insertMany where pendingRows.count - start >= rows {
            try statement.run(rows: pendingRows[start..<start + rows])
            start += rows
        }
        if start < pendingRows.count { try insert.run(pendingRows[start]) }
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

    /// Keeps the newest `maxCount` records, and (at most once a second) drops those older than `maxAge`. Returns
    /// the lowest id that may remain when rows were deleted (the lookup index forgets those below it). `rows` are
    /// this transaction's appends, not yet in the lookup index.
    private func applyRetention(
        lastID: Int64, committing rows: [SQLiteLookupIndex.Entry]
    ) throws(DeliveryStoreError) -> Int64? {
        var firstKept: Int64?
        if lastID > 0 {
            let lastDropped = lastID - Int64(retention.maxCount)
            try deleteUpToID.run([.integer(lastDropped)])
            if connection.changes > 0 { firstKept = lastDropped + 1 }
        }
        if let maxAge = retention.maxAge {
            let now = clock.now()
            guard now.nanosecondsSinceEpoch - lastAgeSweep.nanosecondsSinceEpoch >= 1_000_000_000 else {
                return firstKept
            }
            lastAgeSweep = now
            let cutoff = now.nanosecondsSinceEpoch - maxAge.nanoseconds
            if try deleteReceived(before: cutoff, committing: rows) > 0 {
                try lowestID.bind([])
                let lowest = try lowestID.step() ? lowestID.int64(0) : Int64.max
                lowestID.reset()
                firstKept = max(firstKept ?? 0, lowest)
            }
        }
        return firstKept
    }
}

extension SQLiteDeliveryWriter {
    /// Deletes the rows received before `cutoff`; returns how many. The file has no `received_at` index (schema
    /// version 4: keeping it cost every insert an index entry and every retention delete a second b-tree delete), so
    /// the rows are found from the receive times the lookup index keeps, plus this transaction's `rows`: one
    /// `DELETE … WHERE id <= ?` for the oldest ones, and one per row received out of order (the clock stepped back),
    /// the same rows SQL's `received_at < cutoff` selects. Without a complete lookup index, SQL scans the table.
    fileprivate func deleteReceived(
        before cutoff: Int64, committing rows: [SQLiteLookupIndex.Entry]
    ) throws(DeliveryStoreError) -> Int {
        guard lookups.isComplete else {
            try deleteOlderThan.run([.integer(cutoff)])
            return connection.changes
        }
        let (throughID, others) = lookups.expiredRows(receivedBefore: cutoff)
        var deleted = 0
        if let throughID {
            try deleteUpToID.run([.integer(throughID)])
            deleted += connection.changes
        }
        for id in others {
            try deleteID.run([.integer(id)])
            deleted += connection.changes
        }
        for row in rows where row.receivedAt < cutoff {
            try deleteID.run([.integer(row.id)])
            deleted += connection.changes
        }
        return deleted
    }
}

extension Duration {
    /// Whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }
}
