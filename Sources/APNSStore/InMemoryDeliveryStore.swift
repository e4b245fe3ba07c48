import APNSCore
import Foundation

/// A store that keeps records in memory only: for tests and `--store memory`. A record is "durable" as soon as it
/// is in the array, so `append` calls its completion before returning. Retention is the same as SQLite's.
public final class InMemoryDeliveryStore: DeliveryStore {
    /// One record as kept: id and receive time for paging and retention, the rest packed (`PackedDeliveryRecord`),
    /// or the record itself when a pool of whole values is full.
    struct Entry: Sendable {
        let id: Int64
        let receivedAt: Timestamp
        let form: Form

        enum Form: Sendable {
            case packed([UInt8])
            indirect case whole(DeliveryRecord)
        }

        init(_ record: DeliveryRecord, id: Int64, packer: inout DeliveryPacker) {
            self.id = id
            receivedAt = record.receivedAt
            if let bytes = packer.pack(record) {
                form = .packed(bytes)
            } else {
                form = .whole(record.withID(id))
            }
        }

        private init(id: Int64, receivedAt: Timestamp, form: Form) {
            self.id = id
            self.receivedAt = receivedAt
            self.form = form
        }

        func record(_ pools: DeliveryInternPools) -> DeliveryRecord? {
            switch form {
            case .packed(let bytes):
                PackedDeliveryRecord.unpack(bytes, id: id, receivedAt: receivedAt, pools: pools)
            case .whole(let record):
                record
            }
        }

        func hasAPNsID(_ apnsID: String) -> Bool {
            switch form {
            case .packed(let bytes): PackedDeliveryRecord.hasAPNsID(bytes, apnsID)
            case .whole(let record): record.apnsID.caseInsensitiveCompare(apnsID) == .orderedSame
            }
        }

        /// Holds a dropped record's slot until compaction (nothing allocated).
        static let vacated = Entry(id: 0, receivedAt: .zero, form: .packed([]))
    }

    private struct State {
        /// Ascending by id; entries before `head` are dropped and compacted away in bulk.
        var records: [Entry] = []
        var head = 0
        var nextID: Int64 = 1
        var closed = false
        var lastAgeSweep = Timestamp.zero
        var packer = DeliveryPacker()

        var live: ArraySlice<Entry> { records[head...] }

        /// A dropped record's bytes are freed when it is dropped, not when its slot goes. Slots are compacted once
        /// an eighth are dropped ones (moving 24-byte entries: ~3 MB every ~12,500 pushes at the default
        /// retention), so the array stays within its first capacity past the retention's count instead of twice.
        mutating func drop(count: Int) {
            for index in head..<(head + count) { records[index] = Entry.vacated }
            head += count
            if head > 1024 && head * 8 > records.count {
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
            state.records.append(Entry(record, id: id, packer: &state.packer))
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

    /// Records are decoded and matched outside the lock, on a copy of the live slots and the pools (both shared,
    /// not copied, unless a push arrives meanwhile), so a long scan never holds up the pushes.
    public func deliveries(_ query: DeliveryQuery) throws(DeliveryStoreError) -> [DeliveryRecord] {
        var result: [DeliveryRecord] = []
        let limit = max(0, query.limit)
        guard limit > 0 else { return result }
        let (entries, pools) = state.withLock { state in
            let start = query.order == .oldestFirst ? firstIndex(in: state, after: query.afterID ?? 0) : state.head
            return (state.records[start...], state.packer.pools)
        }
        func take(_ entry: Entry) -> Bool {
            if let afterID = query.afterID, entry.id <= afterID { return false }
            if let beforeID = query.beforeID, entry.id >= beforeID { return false }
            guard let record = entry.record(pools), query.filter.matches(record) else { return false }
            result.append(record)
            return result.count == limit
        }
        switch query.order {
        case .newestFirst:
            for entry in entries.reversed() where take(entry) { break }
        case .oldestFirst:
            for entry in entries where take(entry) { break }
        }
        return result
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
            return state.records[index].record(state.packer.pools)
        }
    }

    public func delivery(apnsID: String) throws(DeliveryStoreError) -> DeliveryRecord? {
        let (entries, pools) = state.withLock { ($0.live, $0.packer.pools) }
        return entries.last { $0.hasAPNsID(apnsID) }?.record(pools)
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
            state.packer = DeliveryPacker()
            return removed
        }
    }

    public func flush() {}

    public func close() {
        state.withLock { $0.closed = true }
        signal.close()
    }
}
