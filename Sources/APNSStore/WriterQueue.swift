import APNSCore
import APNSJSON
import Foundation

/// What the writer thread does, in the order commands were queued.
enum WriterCommand {
    /// Insert a record (already encoded off the writer thread) and report when it is durable.
    case append(EncodedDelivery, completion: @Sendable (Result<Int64, DeliveryStoreError>) -> Void)
    /// Delete everything queued before; report how many rows went.
    case reset(completion: @Sendable (Result<Int, DeliveryStoreError>) -> Void)
    /// Report when everything queued before is durable.
    case barrier(completion: @Sendable () -> Void)
}

/// A record ready for the writer: its row encoded on the appending thread, so the single writer
/// only binds and steps.
struct EncodedDelivery: Sendable {
    private(set) var id: Int64
    /// The values of `SQLiteSchema.insert`'s parameters (`SQLiteSchema.insertedColumns`): id, lookup keys, the
    /// filter columns, the stored record (`SQLiteStoredRecord`).
    private(set) var row: SQLiteRow
    /// The record's receive time in nanoseconds (also in `row`), for the writer's blocks (`SQLiteDeliveryWriter`).
    let receivedAt: Int64

    /// `record`'s row as the store writes it (`DeliveryCodec` after its format tag).
    init(_ record: DeliveryRecord, id: Int64) {
        // The blob is encoded straight into the row's buffer: an array of its own cost an allocation and a copy.
        self.init(columnsOf: record, id: id, blobCapacity: 1024 + record.payload.count)  // as `InMemoryDeliveryStore.store`
        row.appendBlob(encoding: record)
    }

    /// `writeJSON` writes the blob (about `jsonCapacity` bytes) into the row's buffer: a row with a blob of the
    /// caller's choosing (tests of damaged rows).
    init(_ record: DeliveryRecord, id: Int64, jsonCapacity: Int, writeJSON: (inout JSONWriter) -> Void) {
        self.init(columnsOf: record, id: id, blobCapacity: jsonCapacity)
        row.appendBlob(writeContent: writeJSON)
    }

    /// The row up to the record's blob: the id, the lookup keys and the filter columns.
    ///
    /// The columns are written here in `SQLiteSchema.insertedColumns`' order (a test holds the two to the same
    /// values), read straight from the record: going through the field table's closures retained and called one
    /// closure per column of every push.
    private init(columnsOf record: DeliveryRecord, id: Int64, blobCapacity: Int) {
        self.id = id
        let apnsID = record.apnsID
        let deviceToken = record.deviceToken
        receivedAt = record.receivedAt.nanosecondsSinceEpoch
        // The id, two keys, the columns (the texts' sizes guessed: a row that passes this grows once), the blob.
        // Computing the columns' exact sizes called every column's closure twice.
        var row = SQLiteRow(capacity: 9 + 9 + 9 + Self.columnBytesGuess + 5 + blobCapacity)
        row.append(id)
        row.append(SQLiteLookupKey.apnsIDKey(apnsID))  // apns_key
        if let deviceToken { row.append(SQLiteLookupKey.tokenKey(deviceToken)) } else { row.appendNull() }  // token_key
        row.append(receivedAt)  // received_at
        row.append(optionalText: deviceToken)  // token
        row.append(Int64(record.status))  // status
        row.append(optionalText: record.reason)  // reason
        row.append(text: apnsID)  // apns_id
        row.append(optionalText: record.pushType)  // push_type
        row.append(optionalText: record.topic)  // topic
        self.row = row
    }

    /// Room for the filter columns: an apns-id, a 200-digit token, a long topic, push type, reason, two integers.
    static let columnBytesGuess = 640

    /// Sets the id the queue assigned (a row is encoded before it is queued, with id 0).
    mutating func assign(id: Int64) {
        self.id = id
        row.replaceFirstInteger(with: id)
    }
}

/// The hand-off between appending threads and the writer thread: a FIFO of commands and the next id, under one
/// lock, so ids are assigned in queue order and every batch holds contiguous ids.
final class WriterQueue: @unchecked Sendable {
    // Every stored property below is only touched with `condition` locked.
    private let condition = NSCondition()
    private var pending: [WriterCommand] = []
    private var nextID: Int64
    private var closed = false
    /// A reset or barrier is pending: the writer takes it without waiting out `batchInterval`.
    private var urgent = false
    /// When the writer last took a batch, and how many commands it held.
    private var lastTake = ContinuousClock.Instant.now - .seconds(1)
    private var lastBatchCount = 0
    private let batchInterval: Duration

    /// `batchInterval`: the least time between two batches the writer takes (`defaultBatchInterval`).
    init(lastID: Int64, batchInterval: Duration = WriterQueue.defaultBatchInterval) {
        nextID = lastID + 1
        self.batchInterval = batchInterval
    }

    /// Group commit gathers what arrives while the previous transaction runs; a fast writer then commits a few
    /// records at a time, and every commit rewrites the last block's last page and
    /// their parents, whatever it holds. Taking batches at most every 2 ms under load makes each commit write
    /// mostly full pages. The writer waits only when its previous batch held more than one command (pushes arrive
    /// concurrently) and then at most until 2 ms after it took that batch: a lone push, or a sender that waits for
    /// each answer before the next push, is committed at once.
    static let defaultBatchInterval: Duration = .milliseconds(2)

    /// Assigns the next id and queues the command `make` builds for it; nil when the queue is closed.
    func enqueueAppend(_ make: (Int64) -> WriterCommand) -> Int64? {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return nil }
        let id = nextID
        nextID += 1
        pending.append(make(id))
        // Wake the writer when it may be idle (first pending command) or a full batch is ready; in between it is
        // either committing or waiting out the batch interval, and takes these then.
        if pending.count == 1 || pending.count == Self.maximumBatch { condition.signal() }
        return id
    }

    /// Queues a command that carries no id; false when closed.
    func enqueue(_ command: WriterCommand) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        pending.append(command)
        urgent = true
        condition.signal()
        return true
    }

    /// The most commands one transaction takes. Bounds the transaction (and so the WAL, the database's high-water
    /// mark before retention trims it, and the latency of the first record in the batch) when the writer falls
    /// behind; 4096 records still commit in one fsync-free WAL append at well over 100k records/s.
    static let maximumBatch = 4096

    /// Blocks until commands are pending and takes up to `maximumBatch` of them, oldest first; nil once closed and
    /// drained. Takes a batch no sooner than `batchInterval` after the previous one, unless a full batch, a reset, a
    /// barrier or closing is waiting.
    func takeBatch() -> [WriterCommand]? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !closed { condition.wait() }
        if pending.isEmpty { return nil }
        let due = lastTake + batchInterval
        var now = ContinuousClock.Instant.now
        while lastBatchCount > 1 && now < due && pending.count < Self.maximumBatch && !urgent && !closed {
            _ = condition.wait(until: Date(timeIntervalSinceNow: now.duration(to: due).inSeconds))
            now = .now
        }
        lastTake = now
        urgent = false
        lastBatchCount = min(pending.count, Self.maximumBatch)
        if pending.count <= Self.maximumBatch {
            var batch: [WriterCommand] = []
            swap(&batch, &pending)
            // Room for a batch like this one: the queue then fills without reallocating as it grows.
            pending.reserveCapacity(lastBatchCount)
            return batch
        }
        let batch = Array(pending.prefix(Self.maximumBatch))
        pending.removeFirst(Self.maximumBatch)
        return batch
    }

    /// No more commands are accepted; the writer drains what is queued and exits.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
