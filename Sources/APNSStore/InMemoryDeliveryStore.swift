import APNSCore
import Foundation

/// A store that keeps records in memory only: for tests and `--store memory`. A record is "durable" as soon as it
/// is in the array, so `append` calls its completion before returning. Retention is the same as SQLite's.
public final class InMemoryDeliveryStore: DeliveryStore {
    private struct State {
        /// Ascending by id; entries before `head` are dropped and compacted away in bulk.
        var records: [DeliveryRecord] = []
        var head = 0
        var nextID: Int64 = 1
        var closed = false
        var lastAgeSweep = Timestamp.zero

        var live: ArraySlice<DeliveryRecord> { records[head...] }

        /// Holds a dropped record's slot until compaction: the record's strings and arrays are freed when it is
        /// dropped, not when its slot goes (which kept up to twice `maxCount` records in memory).
        static let vacated = DeliveryRecord(
            receivedAt: .zero, connectionID: 0, clientAddress: "", method: "", path: "", deviceToken: nil, headers: [],
            payload: [], status: 0, reason: nil, apnsID: "", pushType: nil, topic: nil, latencyMicroseconds: 0)

        mutating func drop(count: Int) {
            for index in head..<(head + count) { records[index] = Self.vacated }
            head += count
            if head > 1024 && head * 2 > records.count {
                records.removeFirst(head)
                head = 0
            }
        }
    }

    private let state = Locked(State())
    let signal = DurableSignal(durableID: 0)
    private let retention: RetentionPolicy
    private let clock: any WallClock

    public init(retention: RetentionPolicy = RetentionPolicy(), clock: any WallClock = SystemClock()) {
        self.retention = retention
        self.clock = clock
    }

    @discardableResult
    public func append(
        _ record: DeliveryRecord, completion: @escaping @Sendable (Result<Int64, DeliveryStoreError>) -> Void
    ) -> Int64 {
        let id: Int64? = state.withLock { state in
            guard !state.closed else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.records.append(record)
            state.records[state.records.count - 1].id = id
            applyRetention(&state)
            return id
        }
        guard let id else {
            completion(.failure(.closed))
            return 0
        }
        signal.advance(to: id)
        completion(.success(id))
        return id
    }

    private func applyRetention(_ state: inout State) {
        let excess = state.live.count - retention.maxCount
        if excess > 0 { state.drop(count: excess) }
        guard let maxAge = retention.maxAge else { return }
        let now = clock.now()
        guard now.nanosecondsSinceEpoch - state.lastAgeSweep.nanosecondsSinceEpoch >= 1_000_000_000 else { return }
        state.lastAgeSweep = now
        let cutoff = Timestamp(nanosecondsSinceEpoch: now.nanosecondsSinceEpoch - maxAge.nanoseconds)
        let expired = state.live.count { $0.receivedAt < cutoff }
        if expired > 0 {
            let kept = state.live.filter { !($0.receivedAt < cutoff) }
            state.records = Array(kept)
            state.head = 0
        }
    }

    public func deliveries(_ query: DeliveryQuery) throws(DeliveryStoreError) -> [DeliveryRecord] {
        state.withLock { state in
            var result: [DeliveryRecord] = []
            let limit = max(0, query.limit)
            guard limit > 0 else { return result }
            switch query.order {
            case .newestFirst:
                for record in state.live.reversed() where query.matches(record) {
                    result.append(record)
                    if result.count == limit { break }
                }
            case .oldestFirst:
                let start = firstIndex(in: state, after: query.afterID ?? 0)
                for record in state.records[start...] where query.matches(record) {
                    result.append(record)
                    if result.count == limit { break }
                }
            }
            return result
        }
    }

    /// Index of the first live record with id > `id` (records are ascending by id).
    private func firstIndex(in state: State, after id: Int64) -> Int {
        var low = state.head
        var high = state.records.count
        while low < high {
            let mid = (low + high) / 2
            if state.records[mid].id <= id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    public func delivery(id: Int64) throws(DeliveryStoreError) -> DeliveryRecord? {
        state.withLock { state in
            let index = firstIndex(in: state, after: id - 1)
            guard index < state.records.count, state.records[index].id == id else { return nil }
            return state.records[index]
        }
    }

    public func delivery(apnsID: String) throws(DeliveryStoreError) -> DeliveryRecord? {
        state.withLock { state in
            state.live.last { $0.apnsID.caseInsensitiveCompare(apnsID) == .orderedSame }
        }
    }

    public func count() throws(DeliveryStoreError) -> Int {
        state.withLock { $0.live.count }
    }

    @discardableResult
    public func reset() throws(DeliveryStoreError) -> Int {
        state.withLock { state in
            let removed = state.live.count
            state.records = []
            state.head = 0
            return removed
        }
    }

    public func flush() {}

    public func close() {
        state.withLock { $0.closed = true }
        signal.close()
    }
}
