import APNSCore
import Foundation
import HTTPContract
import Synchronization

/// The default store: one SQLite file in WAL mode, written by a single writer thread with group commit.
///
/// Appending threads encode the record (`DeliveryCodec`) and queue it; the writer takes everything
/// queued, inserts it in one transaction, applies retention, commits, and only then calls each record's
/// completion, so a 200 goes out only for a record on disk. Reads use a second connection (WAL lets them run beside the writer).
///
/// Durability: `.processCrash` (default) commits with `synchronous=NORMAL`: in WAL mode a COMMIT has written the
/// transaction to the WAL file, so it survives the process being killed (`kill -9`), and fsync happens at
/// checkpoints, which run on a thread of their own (`SQLiteCheckpointer`); the writer's own WAL restart skips its
/// fsync. Surviving power loss or a kernel crash needs `.powerLoss` (`synchronous=FULL`: fsync at each COMMIT and
/// at the restart), which costs one fsync per group.
public final class SQLiteDeliveryStore: DeliveryStore, @unchecked Sendable {
    /// The file name inside `--data-dir`.
    public static let fileName = "deliveries.sqlite"

    public enum Durability: Sendable {
        /// `synchronous=NORMAL`: survives the process crashing.
        case processCrash
        /// `synchronous=FULL`: survives the machine losing power.
        case powerLoss
    }

    private let queue: WriterQueue
    let signal: DurableSignal
    // `reader` is only used with `readerLock` held; everything else is Sendable.
    private let readerLock = NSLock()
    private let reader: SQLiteDeliveryReader
    /// The writer thread; `close()` joins it, so the writer and its SQLite statements are released on that thread
    /// before `close()` returns, not later while the process exits.
    private let writerThread: JoinableThread
    private let closed = Atomic<Bool>(false)
    /// What is wrong with the store (`DeliveryStore.problems`).
    private let knownProblems = Locked(StoreProblems())
    /// Decodes every row once after the store opens (`decodeEveryRow`), so health names a bad row before a read
    /// trips over it; `close()` stops and joins it.
    private let rowCheck = Locked<JoinableThread?>(nil)
    /// The file.
    public let path: String

    /// Opens (creating if needed) the store at `path`; `directory/fileName` is the usual path.
    public convenience init(
        path: String, retention: RetentionPolicy = RetentionPolicy(), durability: Durability = .processCrash,
        clock: any WallClock = SystemClock()
    ) throws(DeliveryStoreError) {
        try self.init(path: path, retention: retention, durability: durability, clock: clock, blockSize: nil)
    }

    /// `blockSize`: ids per block table (`SQLiteSchema`); nil for `SQLiteSchema.blockSize` (tests pass
    /// small ones). Opening checks the file first (`SQLiteStoreCheck.quickCheck`): a file SQLite finds malformed throws
    /// `.damaged` naming it, before anything is written to it.
    convenience init(
        path: String, retention: RetentionPolicy, durability: Durability = .processCrash,
        clock: any WallClock = SystemClock(), blockSize: Int64?
    ) throws(DeliveryStoreError) {
        do throws(DeliveryStoreError) {
            try self.init(checked: path, retention: retention, durability: durability, clock: clock, blockSize: blockSize)
        } catch {
            if case .damaged = error { throw error }
            guard error.isDamage else { throw error }
            throw .damaged(path: path, detail: "\(error)")
        }
    }

    private init(
        checked path: String, retention: RetentionPolicy, durability: Durability,
        clock: any WallClock, blockSize: Int64?
    ) throws(DeliveryStoreError) {
        self.path = path
        var notes: [String] = []
        if let wal = try StoreFileAside.restoreInterruptedMove(path) {
            notes.append(
                "an earlier move of \(path) aside was interrupted after its WAL was moved to \(wal): the WAL was put "
                    + "back beside the file before it was opened")
        }
        // What the WAL holds before SQLite reads it (and drops what follows its last complete commit).
        var writtenWAL = SQLiteStoreCheck.writtenWALFrames(walPath: path + "-wal")
        var writeConnection = try SQLiteConnection(path: path, mode: .readWrite)
        // Checked before anything below may write to it (a checkpoint, the journal mode, the schema); a file that
        // fails is closed without the checkpoint closing would make.
        writeConnection.checkpointOnClose(false)
        let problems: [String]
        do throws(DeliveryStoreError) {
            problems = try SQLiteStoreCheck.quickCheck(writeConnection)
        } catch {
            writeConnection.close()
            throw error
        }
        guard problems.isEmpty else {
            writeConnection.close()
            throw .damaged(path: path, detail: "SQLite's quick_check found: \(problems.prefix(3).joined(separator: "; "))")
        }
        // A file of another schema version is not read or migrated: it is moved aside, as it is, and a new one
        // started (`StoreFileAside`).
        let version: Int?
        do throws(DeliveryStoreError) {
            version = try SQLiteSchema.fileVersion(writeConnection)
        } catch {
            writeConnection.close()
            throw error
        }
        if let version, version != SQLiteSchema.version {
            writeConnection.close()
            let movedTo = try StoreFileAside.move(path, label: "v\(version)-moved", at: clock.now())
            notes.append(
                "\(path) had schema version \(version), not \(SQLiteSchema.version): it was moved aside, unread, to "
                    + "\(movedTo) (with its -wal and -shm files), and the store started a new, empty file")
            writtenWAL = nil
            writeConnection = try SQLiteConnection(path: path, mode: .readWrite)
        }
        writeConnection.checkpointOnClose(true)
        try writeConnection.execute("PRAGMA page_size=\(SQLiteSchema.pageSize)")  // a new file only
        try writeConnection.execute("PRAGMA journal_mode=WAL")
        try writeConnection.execute(durability == .powerLoss ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
        try writeConnection.execute("PRAGMA journal_size_limit=\(64 << 20)")
        // 16 MiB of page cache for the writer: it appends, and with no index (`SQLiteSchema`) it touches the last
        // block's last pages. (64 MiB held ~48 MB more resident memory for nothing measurable.)
        try writeConnection.execute("PRAGMA cache_size=-16384")
        // No automatic checkpoints on the writer: `SQLiteCheckpointer` runs them on its own thread every 4 MiB of
        // WAL (`SQLiteDeliveryWriter.bytesPerCheckpoint`).
        try writeConnection.execute("PRAGMA wal_autocheckpoint=0")
        // Debian builds SQLite with SECURE_DELETE on: every record retention drops would be overwritten with zeros,
        // one more page written per push. Records hold no secret (the provider token is reduced to a fingerprint).
        try writeConnection.execute("PRAGMA secure_delete=OFF")
        if let writtenWAL, let note = SQLiteStoreCheck.droppedFramesNote(walPath: path + "-wal", written: writtenWAL) {
            notes.append(note)
        }
        try SQLiteSchema.prepare(writeConnection, maxCount: retention.maxCount)
        let reader = SQLiteDeliveryReader(connection: try SQLiteConnection(path: path, mode: .readWrite))
        let lastID = try reader.maxID()
        self.reader = reader
        queue = WriterQueue(lastID: lastID)
        signal = DurableSignal(durableID: lastID)
        let writer = try SQLiteDeliveryWriter(
            connection: writeConnection, checkpointer: try SQLiteCheckpointer(path: path),
            retention: retention, clock: clock, signal: signal, syncOnRestart: durability == .powerLoss,
            blockSize: blockSize)
        do {
            writerThread = try JoinableThread(name: "apns-writer") { [queue] in writer.run(queue) }
        } catch {
            throw .sqlite(code: 1, message: "\(error)")
        }
        knownProblems.withLock { $0.openNotes = notes }
        let thread = try? JoinableThread(name: "apns-store-check") { [weak self] in
            guard let self else { return }
            let rows = try? self.decodeEveryRow()
            if let rows { self.knownProblems.withLock { $0.add(undecodable: rows.undecodable) } }
        }
        rowCheck.withLock { $0 = thread }
    }

    /// Opens `directory/deliveries.sqlite`, creating the directory if needed.
    public convenience init(
        directory: String, retention: RetentionPolicy = RetentionPolicy(), durability: Durability = .processCrash,
        clock: any WallClock = SystemClock()
    ) throws(DeliveryStoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .sqlite(code: 14, message: "cannot create \(directory): \(error)")
        }
        try self.init(
            path: (directory as NSString).appendingPathComponent(Self.fileName), retention: retention,
            durability: durability, clock: clock)
    }

    deinit { close() }

    @discardableResult
    public func append(
        _ record: DeliveryRecord, completion: @escaping @Sendable (Result<Int64, DeliveryStoreError>) -> Void
    ) -> Int64 {
        // The row is encoded here, on the appending thread, outside the queue's lock; only its id is set under it.
        var delivery = EncodedDelivery(record, id: 0)
        let id = queue.enqueueAppend { id in
            delivery.assign(id: id)
            return .append(delivery, completion: completion)
        }
        guard let id else {
            completion(.failure(.closed))
            return 0
        }
        return id
    }

    public func deliveries(_ query: DeliveryQuery) throws(DeliveryStoreError) -> [DeliveryRecord] {
        try deliveryPage(query).records
    }

    public func deliveryPage(_ query: DeliveryQuery) throws(DeliveryStoreError) -> DeliveryPage {
        let page = try withReader { reader throws(DeliveryStoreError) in try reader.deliveryPage(query) }
        if !page.undecodable.isEmpty { knownProblems.withLock { $0.add(undecodable: page.undecodable) } }
        return page
    }

    public func delivery(id: Int64) throws(DeliveryStoreError) -> DeliveryRecord? {
        try withReader { reader throws(DeliveryStoreError) in try reader.delivery(id: id) }
    }

    public func delivery(apnsID: String) throws(DeliveryStoreError) -> DeliveryRecord? {
        try withReader { reader throws(DeliveryStoreError) in try reader.delivery(apnsID: apnsID) }
    }

    public var problems: StoreProblems { knownProblems.withLock { $0 } }

    /// Checks the file (`SQLiteStoreCheck.quickCheck`) and decodes every row, a page at a time (reads
    /// and pushes go on between pages); what it finds replaces what reads had found.
    public func check() throws(DeliveryStoreError) -> StoreCheckReport {
        let clock = ContinuousClock()
        let start = clock.now
        let problems: [String]
        do throws(DeliveryStoreError) {
            problems = try withReader { reader throws(DeliveryStoreError) in try reader.quickCheck() }
        } catch where error.isDamage {
            problems = ["\(error)"]
        }
        let (rows, undecodable) = problems.isEmpty ? try decodeEveryRow() : (0, [])
        knownProblems.withLock { known in
            known.checkFailures = problems
            if problems.isEmpty {
                known.readFailure = nil
                known.forgetUndecodable()
                known.add(undecodable: undecodable)
            }
        }
        return StoreCheckReport(
            problems: problems, rows: rows, undecodable: Array(undecodable.prefix(StoreProblems.listLimit)),
            undecodableCount: undecodable.count, seconds: (clock.now - start).inSeconds)
    }

    public func count() throws(DeliveryStoreError) -> Int {
        try withReader { reader throws(DeliveryStoreError) in try reader.count() }
    }

    @discardableResult
    public func reset() throws(DeliveryStoreError) -> Int {
        let outcome = Locked<Result<Int, DeliveryStoreError>>(.failure(.closed))
        let done = DispatchSemaphore(value: 0)
        guard queue.enqueue(.reset { result in
            outcome.withLock { $0 = result }
            done.signal()
        }) else { throw .closed }
        done.wait()
        let deleted = try outcome.withLock { $0 }.get()
        knownProblems.withLock { $0.forgetUndecodable() }
        return deleted
    }

    public func flush() {
        let done = DispatchSemaphore(value: 0)
        guard queue.enqueue(.barrier { done.signal() }) else { return }
        done.wait()
    }

    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        rowCheck.withLock { $0 }?.join()
        queue.close()
        writerThread.join()
        signal.close()
    }

    /// Reads every row, a page at a time (reads and pushes go on between pages), until the store closes;
    /// returns how many rows it read and those it could not decode (100,000 rows: 0.6 s on a release build).
    private func decodeEveryRow() throws(DeliveryStoreError) -> (rows: Int, undecodable: [UndecodableDelivery]) {
        var undecodable: [UndecodableDelivery] = []
        var rows = 0
        var afterID: Int64 = 0
        while !closed.load(ordering: .acquiring) {
            let page = try withReader { reader throws(DeliveryStoreError) in
                try reader.deliveryPage(
                    DeliveryQuery(filter: .all, afterID: afterID, limit: exportPageSize, order: .oldestFirst))
            }
            rows += page.records.count + page.undecodable.count
            undecodable += page.undecodable
            let last = max(page.records.last?.id ?? 0, page.undecodable.last?.id ?? 0)
            guard last > afterID else { break }
            afterID = last
        }
        return (rows, undecodable)
    }

    /// Runs a read; a read that finds the file damaged, or a row it cannot decode, is remembered in `problems`.
    private func withReader<T>(_ body: (SQLiteDeliveryReader) throws(DeliveryStoreError) -> T)
        throws(DeliveryStoreError) -> T
    {
        readerLock.lock()
        defer { readerLock.unlock() }
        do throws(DeliveryStoreError) {
            return try body(reader)
        } catch {
            if error.isDamage {
                knownProblems.withLock { $0.readFailure = error.description }
            } else if case .corruptRecord(let id, let detail) = error {
                knownProblems.withLock { $0.add(undecodable: [UndecodableDelivery(id: id, error: detail)]) }
            }
            throw error
        }
    }
}
