import APNSCore
import Foundation
import HTTPContract

/// Copies the WAL back into the database file on its own thread and connection, so a group commit never waits for
/// a checkpoint.
///
/// With SQLite's automatic checkpoints the writer thread itself copied ~40 MB and fsynced the file every few
/// thousand records, and every push queued behind that commit waited: most of the durable run's p99 (measured: LA
/// updates, h2load -c 4 -m 100, p99 109–180 ms with automatic checkpoints, 45–48 ms with none; docs/performance.md).
///
/// The writer (`SQLiteDeliveryWriter.checkpointIfDue`) `request`s a checkpoint every `SQLiteDeliveryWriter
/// .bytesPerCheckpoint` of WAL; this thread runs a PASSIVE checkpoint, which never blocks the writer. A passive
/// checkpoint cannot restart the WAL while the writer keeps appending, so under sustained load the writer restarts
/// it itself past `SQLiteDeliveryWriter.restartBytes`, which by then copies only the pages written since the last
/// passive checkpoint.
final class SQLiteCheckpointer: @unchecked Sendable {
    /// Called on the checkpointer thread after each checkpoint with the WAL's frames and those checkpointed.
    private let onCheckpoint: (@Sendable (_ frames: Int64, _ checkpointed: Int64) -> Void)?

    // `requested` and `closed` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var requested = false
    private var closed = false
    /// Joined by `close()`: the thread's connection is closed and released before `close()` returns.
    private var thread: JoinableThread?
    /// Used only on the checkpointer thread after `init`.
    private let connection: SQLiteConnection

    /// Opens its own connection to `path` and starts the thread.
    init(
        path: String, onCheckpoint: (@Sendable (_ frames: Int64, _ checkpointed: Int64) -> Void)? = nil
    ) throws(DeliveryStoreError) {
        connection = try SQLiteConnection(path: path, mode: .readWrite)
        self.onCheckpoint = onCheckpoint
        do {
            thread = try JoinableThread(name: "apns-checkpoint") { [self] in
                run()
                connection.close()
            }
        } catch {
            throw .sqlite(code: 1, message: "\(error)")
        }
    }

    /// Asks for a checkpoint soon; returns at once.
    func request() {
        condition.lock()
        requested = true
        condition.signal()
        condition.unlock()
    }

    /// Stops the thread (after a checkpoint under way) and closes its connection.
    func close() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
        thread?.join()
    }

    private func run() {
        let statement = try? connection.prepare("PRAGMA wal_checkpoint(PASSIVE)")
        while waitForRequest() {
            // One row: busy, WAL frames, frames checkpointed (-1, -1 when not in WAL mode).
            guard let statement, (try? statement.bind([])) != nil, (try? statement.step()) == true else { continue }
            let frames = statement.int64(1)
            let checkpointed = statement.int64(2)
            statement.reset()
            onCheckpoint?(frames, checkpointed)
        }
    }

    /// Blocks until a checkpoint is requested (true) or the checkpointer is closed (false).
    private func waitForRequest() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !requested && !closed { condition.wait() }
        requested = false
        return !closed
    }
}
