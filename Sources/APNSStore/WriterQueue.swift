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

/// A record ready for the writer: id assigned, JSON encoded on the appending thread so the single writer only binds
/// and steps.
struct EncodedDelivery: Sendable {
    let id: Int64
    /// The values of `SQLiteSchema.insert`'s parameters: id, the filter columns, an empty search column, JSON blob,
    /// lookup keys.
    let row: [SQLiteValue]

    init(_ record: DeliveryRecord, id: Int64, json: [UInt8]) {
        self.id = id
        var row: [SQLiteValue] = []
        row.reserveCapacity(DeliveryRecord.columnFields.count + 3 + SQLiteSchema.keyColumns.count)
        row.append(.integer(id))
        for field in DeliveryRecord.columnFields { row.append(field.value(record)) }
        row.append(.text(""))  // the search column, kept for older files: search reads the record JSON
        row.append(.blob(json))
        row.append(SQLiteLookupKey.apnsID(record.apnsID))
        row.append(record.deviceToken.map(SQLiteLookupKey.token) ?? .null)
        self.row = row
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

    init(lastID: Int64) {
        nextID = lastID + 1
    }

    /// Assigns the next id and queues the command `make` builds for it; nil when the queue is closed.
    func enqueueAppend(_ make: (Int64) -> WriterCommand) -> Int64? {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return nil }
        let id = nextID
        nextID += 1
        pending.append(make(id))
        condition.signal()
        return id
    }

    /// Queues a command that carries no id; false when closed.
    func enqueue(_ command: WriterCommand) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        pending.append(command)
        condition.signal()
        return true
    }

    /// The most commands one transaction takes. Bounds the transaction (and so the WAL, the database's high-water
    /// mark before retention trims it, and the latency of the first record in the batch) when the writer falls
    /// behind; 4096 records still commit in one fsync-free WAL append at well over 100k records/s.
    static let maximumBatch = 4096

    /// Blocks until commands are pending and takes up to `maximumBatch` of them, oldest first; nil once closed and
    /// drained.
    func takeBatch() -> [WriterCommand]? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !closed { condition.wait() }
        if pending.isEmpty { return nil }
        if pending.count <= Self.maximumBatch {
            var batch: [WriterCommand] = []
            swap(&batch, &pending)
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
