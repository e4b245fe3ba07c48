import APNSCore
import Foundation
import Synchronization

/// Which rows hold a given apns-id or device token, kept in memory by the SQLite store instead of in SQLite indexes.
///
/// An index on a random key (an apns-id, a token) dirties a random index page per insert, and the store writes every
/// page it dirties to the WAL before the 200 leaves and copies it into the file at the next checkpoint: two key
/// indexes were two of the ~3.5 pages written per Live Activity update. Here the writer adds each
/// committed row's keys (`SQLiteLookupKey`) and drops the rows retention deletes; the reader turns a lookup into a
/// rowid lookup of the candidate rows and still compares the text, so a key collision costs a row read, never a
/// wrong answer. The writer thread fills it from the file before its first commit (`load`); lookups wait until then.
///
/// It also keeps each row's receive time (the file has no `received_at` index, `SQLiteSchema`): retention's
/// age sweep finds the rows to drop here (`expiredRows`), and `since`/`until` reads narrow their id range with it
/// (`idBounds`).
final class SQLiteLookupIndex: Sendable {
    /// What the writer indexes of a committed row.
    struct Entry {
        let id: Int64
        let apnsKey: Int64
        let tokenKey: Int64?
        /// `received_at`: the record's receive time in nanoseconds since the epoch.
        let receivedAt: Int64
    }

    private struct Row {
        let id: Int64
        let apnsKey: Int64
        let tokenKey: Int64?
        let receivedAt: Int64
        /// The position (`State.position`) of the previous row with the same token key; -1 for none.
        let previousWithToken: Int
        /// Received before a row with a lower id (the clock stepped back): the rows received before a time are then
        /// not just a prefix of `rows`.
        let outOfOrder: Bool
    }

    private struct State {
        /// apns-id key → the newest row with that key (a newer row with the same apns-id hides older ones, as
        /// `delivery(apnsID:)` answers the newest), for the rows added since `generationStart`; `olderByAPNsKey`
        /// holds the generation before. Retention never removes a key: once every row of the older generation is
        /// dropped, that generation goes whole and the current one becomes the older (`dropRows`). Removing each
        /// dropped row's keys cost two random probes of 100,000-entry tables per push, and their cache misses were
        /// most of the writer's lookup work once retention ran. A key whose row was dropped may stay until then:
        /// lookups check the row is still kept.
        var newestByAPNsKey: [HashedKey: Int64] = [:]
        var olderByAPNsKey: [HashedKey: Int64] = [:]
        /// token key → the position of its newest row; its older rows are chained through `previousWithToken`
        /// (no array per token: most tokens of a busy sender hold one or two rows, and an array each cost an
        /// allocation per new token). Two generations, as the apns-id keys.
        var newestByTokenKey: [HashedKey: Int] = [:]
        var olderByTokenKey: [HashedKey: Int] = [:]
        /// Every row in the older generation has an id below this.
        var generationStart = Int64.min
        /// Every indexed row, oldest first (ids ascend), for dropping what retention deleted.
        var rows = FrontDroppingArray<Row>()
        /// How many rows were dropped from the front of `rows` since the last reset: the row at position `p`
        /// (counted from the first row added since then) is `rows.elements` at offset `p - dropped`.
        var dropped = 0
        /// The latest receive time added since the last reset, and how many kept rows are `outOfOrder`.
        var latestReceivedAt = Int64.min
        var outOfOrderRows = 0

        /// The position the next added row takes.
        var nextPosition: Int { dropped + rows.count }

        func row(at position: Int) -> Row {
            let elements = rows.elements
            return elements[elements.startIndex + (position - dropped)]
        }
    }

    private let state = Mutex(State())
    private let readiness = NSCondition()
    private let readyFlag = Atomic<Bool>(false)
    private let completeFlag = Atomic<Bool>(false)

    /// Whether every row of the file is indexed (`load` succeeded): only then may the age sweep and `idBounds` rely
    /// on the receive times kept here.
    var isComplete: Bool { completeFlag.load(ordering: .acquiring) }

    /// Reads the keys of every row from `firstVisible` on, block by block (the writer thread, before its first
    /// commit; the rows below are hidden, `SQLiteBlocks`); then lookups may proceed.
    func load(from connection: SQLiteConnection, firstVisible: Int64 = .min) throws(DeliveryStoreError) {
        defer { markReady() }
        var loaded: [Entry] = []
        for block in try SQLiteBlocks(connection).blocks {
            let statement = try connection.prepare(
                "SELECT id, apns_key, token_key, received_at FROM \(block.table) WHERE id >= ? ORDER BY id")
            try statement.bind([.integer(firstVisible)])
            while try statement.step() {
                loaded.append(Entry(
                    id: statement.int64(0), apnsKey: statement.int64(1),
                    tokenKey: statement.isNull(2) ? nil : statement.int64(2), receivedAt: statement.int64(3)))
            }
            statement.reset()
        }
        state.withLock { state in
            for entry in loaded { Self.add(entry, to: &state) }
        }
        completeFlag.store(true, ordering: .releasing)
    }

    /// Lookups proceed without loading (a store whose writer could not start reads through SQL alone).
    func markReady() {
        readiness.lock()
        readyFlag.store(true, ordering: .releasing)
        readiness.broadcast()
        readiness.unlock()
    }

    private func waitUntilReady() {
        if readyFlag.load(ordering: .acquiring) { return }
        readiness.lock()
        while !readyFlag.load(ordering: .acquiring) { readiness.wait() }
        readiness.unlock()
    }

    /// Rows just committed, in id order.
    func add(_ rows: [Entry]) {
        guard !rows.isEmpty else { return }
        state.withLock { state in
            for row in rows { Self.add(row, to: &state) }
        }
    }

    /// Forgets the rows with an id below `firstKept` (retention deleted them).
    func dropRows(below firstKept: Int64) {
        state.withLock { state in
            while let row = state.rows.first, row.id < firstKept {
                state.rows.popFirst()
                state.dropped += 1
                if row.outOfOrder { state.outOfOrderRows -= 1 }
            }
            // Every row of the older generation dropped: it goes, the current one becomes the older (its storage
            // kept for the new current one). Every row dropped: both go.
            guard let first = state.rows.first, let last = state.rows.elements.last else {
                state.newestByAPNsKey.removeAll(keepingCapacity: true)
                state.newestByTokenKey.removeAll(keepingCapacity: true)
                state.olderByAPNsKey.removeAll(keepingCapacity: true)
                state.olderByTokenKey.removeAll(keepingCapacity: true)
                state.generationStart = .min
                return
            }
            if first.id >= state.generationStart {
                swap(&state.olderByAPNsKey, &state.newestByAPNsKey)
                swap(&state.olderByTokenKey, &state.newestByTokenKey)
                state.newestByAPNsKey.removeAll(keepingCapacity: true)
                state.newestByTokenKey.removeAll(keepingCapacity: true)
                state.generationStart = last.id + 1
            }
        }
    }

    /// Forgets every row (the store was reset).
    func removeAll() {
        state.withLock { $0 = State() }
    }

    /// The newest row whose apns-id has `key`.
    func newestRow(apnsKey key: Int64) -> Int64? {
        waitUntilReady()
        return state.withLock { state in
            guard let row = state.newestByAPNsKey[HashedKey(key)] ?? state.olderByAPNsKey[HashedKey(key)],
                let first = state.rows.first, row >= first.id
            else { return nil }  // its rows were dropped (the key stays until its generation goes)
            return row
        }
    }

    /// The rows whose token has `key`, oldest first.
    func rows(tokenKey key: Int64) -> [Int64] {
        waitUntilReady()
        return state.withLock { state in
            var rows: [Int64] = []
            var position = state.newestByTokenKey[HashedKey(key)] ?? state.olderByTokenKey[HashedKey(key)] ?? -1
            // Positions below `dropped` are rows retention deleted: the chain ends there.
            while position >= state.dropped {
                let row = state.row(at: position)
                rows.append(row.id)
                position = row.previousWithToken
            }
            rows.reverse()
            return rows
        }
    }

    /// The indexed rows received before `cutoff` (nanoseconds since the epoch), which retention's age limit drops: the
    /// highest id of the leading run of such rows (every row up to it was received before `cutoff`), and the ids of
    /// any later ones. Later ones exist only after the clock stepped back (`Row.outOfOrder`); otherwise receive times
    /// ascend with ids and the leading run is all of them.
    func expiredRows(receivedBefore cutoff: Int64) -> (throughID: Int64?, others: [Int64]) {
        state.withLock { state in
            let rows = state.rows.elements
            var index = rows.startIndex
            var throughID: Int64?
            while index < rows.endIndex, rows[index].receivedAt < cutoff {
                throughID = rows[index].id
                index += 1
            }
            var others: [Int64] = []
            if state.outOfOrderRows > 0 {
                for row in rows[index...] where row.receivedAt < cutoff { others.append(row.id) }
            }
            return (throughID, others)
        }
    }

    /// Id bounds for a read of the rows received at or after `since` and before `until` (nanoseconds since the epoch;
    /// nil: no bound): every such row that is indexed has an id of at least `lowest` and at most `highest`, and rows
    /// committed but not indexed yet (the moment between a commit and `add`) have ids above `lastIndexed`. Rows the
    /// index still holds after retention deleted them only widen the bounds. nil when no row is indexed, or the index
    /// is not complete.
    func idBounds(
        receivedSince since: Int64?, before until: Int64?
    ) -> (lowest: Int64, highest: Int64, lastIndexed: Int64)? {
        waitUntilReady()
        guard isComplete else { return nil }
        return state.withLock { state in
            let rows = state.rows.elements
            guard let last = rows.last else { return nil }
            var lowest = rows.first?.id ?? 0
            if let since {
                lowest = rows.first(where: { $0.receivedAt >= since })?.id ?? last.id + 1
            }
            var highest = last.id
            if let until {
                highest = rows.last(where: { $0.receivedAt < until })?.id ?? 0
            }
            return (lowest, highest, last.id)
        }
    }

    /// How many rows are indexed (tests).
    var count: Int { state.withLock { $0.rows.count } }

    private static func add(_ entry: Entry, to state: inout State) {
        var previousWithToken = -1
        if let tokenKey = entry.tokenKey {
            let position = state.nextPosition
            if let previous = state.newestByTokenKey.updateValue(position, forKey: HashedKey(tokenKey)) {
                previousWithToken = previous
            } else if !state.olderByTokenKey.isEmpty {  // none before retention first drops rows
                previousWithToken = state.olderByTokenKey[HashedKey(tokenKey)] ?? -1
            }
        }
        let outOfOrder = entry.receivedAt < state.latestReceivedAt
        if outOfOrder { state.outOfOrderRows += 1 } else { state.latestReceivedAt = entry.receivedAt }
        state.rows.append(Row(
            id: entry.id, apnsKey: entry.apnsKey, tokenKey: entry.tokenKey, receivedAt: entry.receivedAt,
            previousWithToken: previousWithToken, outOfOrder: outOfOrder))
        state.newestByAPNsKey[HashedKey(entry.apnsKey)] = entry.id
    }
}
