import APNSCore
import Foundation

/// A store that keeps records in memory only: for tests and `--store memory`. A record is "durable" as soon as it
/// is in the array, so `append` calls its completion before returning. Retention is the same as SQLite's.
///
/// Records are packed (`PackedDeliveryRecord`) by the appending thread's packer outside the store's lock; under
/// the lock the packed bytes are copied to the end of the arena (`PackedRecordArena`) and the slot appended.
package final class InMemoryDeliveryStore: DeliveryStore {
    /// One record as kept: id and receive time for paging and retention, and where its packed bytes are, or
    /// `whole` when it is kept as a value in `State.wholes` (a pool of whole values was full, or the pools were
    /// reset while it was packed). Plain values: appending, dropping and compacting slots retains nothing.
    struct Entry: Sendable {
        let id: Int64
        let receivedAt: Timestamp
        let location: PackedRecordArena.Location

        static let whole = PackedRecordArena.Location(chunk: .max, offset: 0)
    }

    /// What decoding an entry needs, copied under the lock and used outside it.
    struct Snapshot: Sendable {
        let arena: PackedRecordArena.View
        let wholes: [Int64: DeliveryRecord]
        let pools: DeliveryInternPools

        func record(_ entry: Entry) -> DeliveryRecord? {
            if entry.location == Entry.whole { return wholes[entry.id] }
            return arena.withBytes(at: entry.location) { bytes in
                PackedDeliveryRecord.unpack(bytes, id: entry.id, receivedAt: entry.receivedAt, pools: pools)
            } ?? nil
        }

        func hasAPNsID(_ entry: Entry, _ apnsID: String) -> Bool {
            if entry.location == Entry.whole {
                return wholes[entry.id].map { $0.apnsID.caseInsensitiveCompare(apnsID) == .orderedSame } ?? false
            }
            return arena.withBytes(at: entry.location) { PackedDeliveryRecord.hasAPNsID($0, apnsID) } ?? false
        }
    }

    private struct State {
        /// Ascending by id. Dropped slots are compacted away in bulk (`FrontDroppingArray`: moving 24-byte entries,
        /// ~3 MB every ~12,500 pushes at the default retention), so the array stays within its first capacity past
        /// the retention's count instead of twice; the arena frees whole chunks as the first live record passes them.
        var records = FrontDroppingArray<Entry>()
        var nextID: Int64 = 1
        var closed = false
        var lastAgeSweep = Timestamp.zero
        var arena = PackedRecordArena()
        var wholes: [Int64: DeliveryRecord] = [:]
        /// No live record was received before this (a lower bound: dropping records only raises the true oldest), so
        /// an age sweep whose cutoff is not past it has nothing to drop and is skipped instead of reading every slot.
        var oldestReceivedAt = Timestamp(nanosecondsSinceEpoch: .max)

        var live: ArraySlice<Entry> { records.elements }

        mutating func drop(count: Int) {
            if !wholes.isEmpty { forgetWholes(of: records.elements.prefix(count)) }
            records.removeFirst(count)
            arena.release(below: records.first?.id ?? nextID)
        }

        /// Forgets the whole values kept for `entries`, which leave the store.
        mutating func forgetWholes(of entries: some Sequence<Entry>) {
            for entry in entries where entry.location == Entry.whole { wholes[entry.id] = nil }
        }
    }

    private let state = Locked(State())
    private let pools: SharedDeliveryPools
    private let packers: DeliveryPackers
    let signal = DurableSignal(durableID: 0)
    private let retention: RetentionPolicy
    private let clock: any WallClock

    package convenience init(retention: RetentionPolicy = RetentionPolicy(), clock: any WallClock = SystemClock()) {
        self.init(retention: retention, clock: clock, pools: DeliveryInternPools())
    }

    /// `pools`: the empty pools to start with (their capacities; tests fill them up quickly).
    init(retention: RetentionPolicy, clock: any WallClock, pools: DeliveryInternPools) {
        self.retention = retention
        self.clock = clock
        self.pools = SharedDeliveryPools(pools)
        packers = DeliveryPackers(pools: self.pools)
    }

    /// How many chunks the arena holds now (tests: memory goes back as records are dropped).
    var arenaChunkCount: Int { state.withLock { $0.arena.chunks.count } }

    /// How many records are kept whole (tests: a record's whole value goes when the record does).
    var wholeRecordCount: Int { state.withLock { $0.wholes.count } }

    @discardableResult
    package func append(
        _ record: DeliveryRecord, completion: @escaping @Sendable (Result<Int64, DeliveryStoreError>) -> Void
    ) -> Int64 {
        guard let id = appendNow(record) else {
            completion(.failure(.closed))
            return 0
        }
        completion(.success(id))
        return id
    }

    /// `append` without a completion: the record is kept (and long polls woken) before it returns, so a caller on
    /// the pushing thread learns the outcome at once instead of handing over a closure for every push. Returns the
    /// record's id, or nil when the store is closed.
    package func appendNow(_ record: DeliveryRecord) -> Int64? {
        appendPacked(record)
    }

    /// `appendNow` for a device push, packed straight from its request and answer (the same bytes as its
    /// `record`'s, without building that value first). Consumed: the caller's value is moved in, not copied.
    package func appendNow(_ push: consuming DevicePushRecord) -> Int64? {
        appendPacked(push)
    }

    private func appendPacked<Record: PackableDelivery>(_ record: Record) -> Int64? {
        let receivedAt = record.receivedAt
        // Read before the lock, not under it (the age sweep's clock; both loop threads take the lock per push).
        let now = retention.maxAge == nil ? Timestamp.zero : clock.now()
        let id: Int64? = packers.withPacker { packer in
            let generation = packer.packInScratch(record)
            return packer.withPackedBytes { bytes in
                state.withLock { state in
                    guard !state.closed else { return nil }
                    let id = state.nextID
                    state.nextID += 1
                    let location: PackedRecordArena.Location
                    if let generation, generation == pools.generation {
                        location = state.arena.append(bytes, id: id)
                    } else {
                        location = Entry.whole
                        state.wholes[id] = record.wholeRecord(id: id)
                    }
                    state.records.append(Entry(id: id, receivedAt: receivedAt, location: location))
                    if receivedAt < state.oldestReceivedAt { state.oldestReceivedAt = receivedAt }
                    applyRetention(&state, now: now)
                    return id
                }
            }
        }
        guard let id else { return nil }
        signal.advance(to: id)
        return id
    }

    /// `now`: the clock, read before the store's lock was taken.
    private func applyRetention(_ state: inout State, now: Timestamp) {
        let excess = state.records.count - retention.maxCount
        if excess > 0 { state.drop(count: excess) }
        guard let maxAge = retention.maxAge else { return }
        guard now.nanosecondsSinceEpoch - state.lastAgeSweep.nanosecondsSinceEpoch >= 1_000_000_000 else { return }
        state.lastAgeSweep = now
        let cutoff = Timestamp(nanosecondsSinceEpoch: now.nanosecondsSinceEpoch - maxAge.nanoseconds)
        guard state.oldestReceivedAt < cutoff else { return }
        var expired = 0
        var oldestKept = Timestamp(nanosecondsSinceEpoch: .max)
        for entry in state.live {
            if entry.receivedAt < cutoff {
                expired += 1
            } else if entry.receivedAt < oldestKept {
                oldestKept = entry.receivedAt
            }
        }
        state.oldestReceivedAt = oldestKept
        if expired > 0 {
            if !state.wholes.isEmpty { state.forgetWholes(of: state.live.lazy.filter { $0.receivedAt < cutoff }) }
            state.records = FrontDroppingArray(state.live.filter { !($0.receivedAt < cutoff) })
            state.arena.release(below: state.records.first?.id ?? state.nextID)
        }
    }

    private func snapshot(_ state: State) -> Snapshot {
        Snapshot(arena: state.arena.view, wholes: state.wholes, pools: pools.snapshot())
    }

    /// Records are decoded and matched outside the lock, on a copy of the live slots, the arena's chunks and the
    /// pools (all shared, not copied, unless a push arrives meanwhile), so a long scan never holds up the pushes.
    package func deliveries(_ query: DeliveryQuery) throws(DeliveryStoreError) -> [DeliveryRecord] {
        var result: [DeliveryRecord] = []
        let limit = max(0, query.limit)
        guard limit > 0 else { return result }
        let (entries, snapshot) = state.withLock { state in
            let live = state.live
            let start = query.order == .oldestFirst ? firstIndex(in: live, after: query.afterID ?? 0) : live.startIndex
            return (live[start...], self.snapshot(state))
        }
        func take(_ entry: Entry) -> Bool {
            if let afterID = query.afterID, entry.id <= afterID { return false }
            if let beforeID = query.beforeID, entry.id >= beforeID { return false }
            guard let record = snapshot.record(entry), query.filter.matches(record) else { return false }
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
    private func firstIndex(in live: ArraySlice<Entry>, after id: Int64) -> Int {
        var low = live.startIndex
        var high = live.endIndex
        while low < high {
            let mid = (low + high) / 2
            if live[mid].id <= id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    package func delivery(id: Int64) throws(DeliveryStoreError) -> DeliveryRecord? {
        let found: (Entry, Snapshot)? = state.withLock { state in
            let live = state.live
            let index = firstIndex(in: live, after: id - 1)
            guard index < live.endIndex, live[index].id == id else { return nil }
            return (live[index], snapshot(state))
        }
        guard let (entry, snapshot) = found else { return nil }
        return snapshot.record(entry)
    }

    package func delivery(apnsID: String) throws(DeliveryStoreError) -> DeliveryRecord? {
        let (entries, snapshot) = state.withLock { ($0.live, self.snapshot($0)) }
        return entries.last { snapshot.hasAPNsID($0, apnsID) }.flatMap(snapshot.record)
    }

    package func count() throws(DeliveryStoreError) -> Int {
        state.withLock { $0.records.count }
    }

    @discardableResult
    package func reset() throws(DeliveryStoreError) -> Int {
        state.withLock { state in
            let removed = state.records.count
            state.records = FrontDroppingArray()
            state.arena.removeAll()
            state.wholes = [:]
            state.oldestReceivedAt = Timestamp(nanosecondsSinceEpoch: .max)
            pools.reset()
            return removed
        }
    }

    package func flush() {}

    package func close() {
        state.withLock { $0.closed = true }
        signal.close()
    }
}
