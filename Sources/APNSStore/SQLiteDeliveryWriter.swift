import APNSCore
import Foundation

/// The single writer of the SQLite store. Runs on its own thread: takes every queued command, executes them in one
/// transaction (group commit), applies retention, commits, then reports. Owns its connection exclusively; the WAL
/// is copied back into the file by `SQLiteCheckpointer`, never on this thread (but for a runaway WAL).
final class SQLiteDeliveryWriter: @unchecked Sendable {
    // Used only on the writer thread after `init`.
    private let connection: SQLiteConnection
    private let insert: SQLiteConnection.Statement
    private let deleteUpToID: SQLiteConnection.Statement
    private let deleteOlderThan: SQLiteConnection.Statement
    private let deleteAll: SQLiteConnection.Statement
    private let retention: RetentionPolicy
    private let clock: any WallClock
    private let signal: DurableSignal
    private var lastAgeSweep = Timestamp.zero
    private let checkpointer: SQLiteCheckpointer
    private var framesAtLastRequest = 0
    /// WAL pages (4 KiB) between checkpoint requests: 16 MiB.
    static let framesPerCheckpoint = 4_096
    /// WAL pages past which the writer restarts the WAL itself (~59 MiB, under `journal_size_limit`'s 64 MiB).
    static let restartFrames = 15_000

    init(
        connection: SQLiteConnection, checkpointer: SQLiteCheckpointer, retention: RetentionPolicy,
        clock: any WallClock, signal: DurableSignal
    ) throws(DeliveryStoreError) {
        self.connection = connection
        self.checkpointer = checkpointer
        connection.trackWALFrames()
        insert = try connection.prepare(SQLiteSchema.insert)
        deleteUpToID = try connection.prepare("DELETE FROM deliveries WHERE id <= ?")
        deleteOlderThan = try connection.prepare("DELETE FROM deliveries WHERE received_at < ?")
        deleteAll = try connection.prepare("DELETE FROM deliveries")
        self.retention = retention
        self.clock = clock
        self.signal = signal
    }

    /// Runs until the queue is closed and drained, then stops the checkpointer, empties the WAL into the file and
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
            try connection.execute("BEGIN IMMEDIATE")
            for command in batch {
                switch command {
                case .append(let row, _):
                    try insert.run(row.row)
                    highestID = row.id
                case .reset:
                    try deleteAll.run()
                    resetCounts.append(connection.changes)
                case .barrier:
                    break
                }
            }
            try applyRetention(lastID: highestID)
            try connection.execute("COMMIT")
            outcome = .success(())
        } catch {
            try? connection.execute("ROLLBACK")
            outcome = .failure(error)
        }
        if highestID > 0 { signal.advance(to: highestID) }
        report(batch, outcome: outcome, resetCounts: resetCounts)
        checkpointIfDue()
    }

    /// After a commit (and its answers): asks the checkpointer for a passive checkpoint every `framesPerCheckpoint`
    /// WAL pages, and restarts the WAL here once it passes `restartFrames` (under sustained load passive
    /// checkpoints never catch up with the writer; the restart then copies only what they have not).
    private func checkpointIfDue() {
        let frames = connection.walFrames
        if frames < framesAtLastRequest { framesAtLastRequest = 0 }  // the WAL was restarted
        if frames >= Self.restartFrames {
            try? connection.execute("PRAGMA wal_checkpoint(RESTART)")
            framesAtLastRequest = 0
        } else if frames - framesAtLastRequest >= Self.framesPerCheckpoint {
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

    /// Keeps the newest `maxCount` records, and (at most once a second) drops those older than `maxAge`.
    private func applyRetention(lastID: Int64) throws(DeliveryStoreError) {
        if lastID > 0 {
            try deleteUpToID.run([.integer(lastID - Int64(retention.maxCount))])
        }
        if let maxAge = retention.maxAge {
            let now = clock.now()
            guard now.nanosecondsSinceEpoch - lastAgeSweep.nanosecondsSinceEpoch >= 1_000_000_000 else { return }
            lastAgeSweep = now
            let cutoff = now.nanosecondsSinceEpoch - maxAge.nanoseconds
            try deleteOlderThan.run([.integer(cutoff)])
        }
    }
}

extension Duration {
    /// Whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000
    }
}
