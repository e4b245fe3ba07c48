import APNSCore
import APNSJSON
import Foundation

/// A store that keeps records in memory only: for tests and `--store memory`. A ring of the rows the SQLite store
/// writes (`DeliveryCodec`'s bytes, with the id and receive time beside them); a record is "durable" as soon as it is
/// in the ring, so `append` calls its completion before returning. Retention is the same as SQLite's.
public final class InMemoryDeliveryStore: DeliveryStore {
    /// One record as kept: id and receive time for paging and retention, and its encoded bytes.
    struct Row: Sendable {
        let id: Int64
        let receivedAt: Timestamp
        let bytes: [UInt8]

        var record: DeliveryRecord? { DeliveryCodec.decode(bytes[...], id: id, receivedAt: receivedAt) }
    }

    private struct State {
        /// Ascending by id; the oldest are dropped from the front.
        var rows = FrontDroppingArray<Row>()
        var nextID: Int64 = 1
        var closed = false
        var lastAgeSweep = Timestamp.zero
        /// No live record was received before this (a lower bound: dropping records only raises the true oldest), so
        /// an age sweep whose cutoff is not past it has nothing to drop and is skipped instead of reading every row.
        var oldestReceivedAt = Timestamp(nanosecondsSinceEpoch: .max)

        var live: ArraySlice<Row> { rows.elements }
    }

    private let state = Locked(State())
    let signal = DurableSignal(durableID: 0)
    private let retention: RetentionPolicy
    private let clock: any WallClock

    public init(retention: RetentionPolicy = RetentionPolicy(), clock: any WallClock = SystemClock()) {
        self.retention = retention
        self.clock = clock
    }

    /// Keeps `record` (encoded outside the lock) and calls `completion` before returning.
    @discardableResult
    public func append(
        _ record: DeliveryRecord, completion: @escaping @Sendable (Result<Int64, DeliveryStoreError>) -> Void
    ) -> Int64 {
        let result = store(record)
        completion(result)
        return (try? result.get()) ?? 0
    }

    /// Keeps `record`: durable once in the ring, so the answer is returned, with no completion to call.
    public func appendAtOnce(_ record: DeliveryRecord) -> Result<Int64, DeliveryStoreError>? {
        store(record)
    }

    /// Encodes `record` outside the lock and adds it to the ring.
    private func store(_ record: DeliveryRecord) -> Result<Int64, DeliveryStoreError> {
        // Encoded into the buffer the SQLite store's rows use, then copied out once: appending to a byte array
        // a byte and a string at a time cost ~4k instructions a push more. A Live Activity record is ~700 bytes
        // besides its payload.
        var buffer = JSONWriter(capacity: 1024 + record.payload.count)
        DeliveryCodec.encode(record, into: &buffer)
        let bytes = buffer.bytes
        let receivedAt = record.receivedAt
        // Read before the lock, not under it (the age sweep's clock).
        let now = retention.maxAge == nil ? Timestamp.zero : clock.now()
        let id: Int64? = state.withLock { state in
            guard !state.closed else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.rows.append(Row(id: id, receivedAt: receivedAt, bytes: bytes))
            if receivedAt < state.oldestReceivedAt { state.oldestReceivedAt = receivedAt }
            applyRetention(&state, now: now)
            return id
        }
        guard let id else { return .failure(.closed) }
        signal.advance(to: id)
        return .success(id)
    }

    /// `now`: the clock, read before the store's lock was taken.
    private func applyRetention(_ state: inout State, now: Timestamp) {
        let excess = state.rows.count - retention.maxCount
        if excess > 0 { state.rows.removeFirst(excess) }
        guard let maxAge = retention.maxAge else { return }
        guard now.nanosecondsSinceEpoch - state.lastAgeSweep.nanosecondsSinceEpoch >= 1_000_000_000 else { return }
        state.lastAgeSweep = now
        let cutoff = Timestamp(nanosecondsSinceEpoch: now.nanosecondsSinceEpoch - maxAge.nanoseconds)
        guard state.oldestReceivedAt < cutoff else { return }
        var expired = 0
        var oldestKept = Timestamp(nanosecondsSinceEpoch: .max)
        for row in state.live {
            if row.receivedAt < cutoff {
                expired += 1
            } else if row.receivedAt < oldestKept {
                oldestKept = row.receivedAt
            }
        }
        state.oldestReceivedAt = oldestKept
        if expired > 0 { state.rows = FrontDroppingArray(state.live.filter { !($0.receivedAt < cutoff) }) }
    }

    /// Records are decoded and matched outside the lock, on a copy of the live rows (shared, not copied, unless a push
    /// arrives meanwhile), so a long scan never holds up the pushes.
    public func deliveries(_ query: DeliveryQuery) throws(DeliveryStoreError) -> [DeliveryRecord] {
        var result: [DeliveryRecord] = []
        let limit = max(0, query.limit)
        guard limit > 0 else { return result }
        let rows = state.withLock { state in
            let live = state.live
            let start = query.order == .oldestFirst ? firstIndex(in: live, after: query.afterID ?? 0) : live.startIndex
            return live[start...]
        }
        func take(_ row: Row) -> Bool {
            if let afterID = query.afterID, row.id <= afterID { return false }
            if let beforeID = query.beforeID, row.id >= beforeID { return false }
            guard let record = row.record, query.filter.matches(record) else { return false }
            result.append(record)
            return result.count == limit
        }
        switch query.order {
        case .newestFirst:
            for row in rows.reversed() where take(row) { break }
        case .oldestFirst:
            for row in rows where take(row) { break }
        }
        return result
    }

    /// Index of the first live record with id > `id` (records are ascending by id).
    private func firstIndex(in live: ArraySlice<Row>, after id: Int64) -> Int {
        var low = live.startIndex
        var high = live.endIndex
        while low < high {
            let mid = (low + high) / 2
            if live[mid].id <= id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    public func delivery(id: Int64) throws(DeliveryStoreError) -> DeliveryRecord? {
        let found: Row? = state.withLock { state in
            let live = state.live
            let index = firstIndex(in: live, after: id - 1)
            guard index < live.endIndex, live[index].id == id else { return nil }
            return live[index]
        }
        return found?.record
    }

    public func delivery(apnsID: String) throws(DeliveryStoreError) -> DeliveryRecord? {
        let rows = state.withLock { $0.live }
        return rows.last { DeliveryCodec.hasAPNsID($0.bytes[...], apnsID) }?.record
    }

    public func count() throws(DeliveryStoreError) -> Int {
        state.withLock { $0.rows.count }
    }

    @discardableResult
    public func reset() throws(DeliveryStoreError) -> Int {
        state.withLock { state in
            let removed = state.rows.count
            state.rows = FrontDroppingArray()
            state.oldestReceivedAt = Timestamp(nanosecondsSinceEpoch: .max)
            return removed
        }
    }

    public func flush() {}

    public func close() {
        state.withLock { $0.closed = true }
        signal.close()
    }
}
