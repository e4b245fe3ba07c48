import APNSCore
import Foundation
import Synchronization

/// Which rows hold a given apns-id or device token, kept in memory by the SQLite store instead of in SQLite indexes.
///
/// An index on a random key (an apns-id, a token) dirties a random index page per insert, and the store writes every
/// page it dirties to the WAL before the 200 leaves and copies it into the file at the next checkpoint: the two key
/// indexes of schema version 2 were two of the ~3.5 pages written per Live Activity update. Here the writer adds each
/// committed row's keys (`SQLiteLookupKey`) and drops the rows retention deletes; the reader turns a lookup into a
/// rowid lookup of the candidate rows and still compares the text, so a key collision costs a row read, never a
/// wrong answer. The writer thread fills it from the file before its first commit (`load`); lookups wait until then.
final class SQLiteLookupIndex: Sendable {
    private struct Row {
        let id: Int64
        let apnsKey: Int64
        let tokenKey: Int64?
        /// The position (`State.position`) of the previous row with the same token key; -1 for none.
        let previousWithToken: Int
    }

    private struct State {
        /// apns-id key → the newest row with that key (a newer row with the same apns-id hides older ones, as
        /// `delivery(apnsID:)` answers the newest).
        var newestByAPNsKey: [Int64: Int64] = [:]
        /// token key → the position of its newest row; its older rows are chained through `previousWithToken`
        /// (no array per token: most tokens of a busy sender hold one or two rows, and an array each cost an
        /// allocation per new token).
        var newestByTokenKey: [Int64: Int] = [:]
        /// Every indexed row, oldest first (ids ascend), for dropping what retention deleted.
        var rows = FrontDroppingArray<Row>()
        /// How many rows were dropped from the front of `rows` since the last reset: the row at position `p`
        /// (counted from the first row added since then) is `rows.elements` at offset `p - dropped`.
        var dropped = 0

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

    /// Reads every row's keys (the writer thread, before its first commit); then lookups may proceed.
    func load(from connection: SQLiteConnection) throws(DeliveryStoreError) {
        defer { markReady() }
        let statement = try connection.prepare("SELECT id, apns_key, token_key FROM deliveries ORDER BY id")
        try statement.bind([])
        var loaded: [(Int64, Int64, Int64?)] = []
        while try statement.step() {
            loaded.append((statement.int64(0), statement.int64(1), statement.isNull(2) ? nil : statement.int64(2)))
        }
        statement.reset()
        state.withLock { state in
            for (id, apnsKey, tokenKey) in loaded { Self.add(id: id, apnsKey: apnsKey, tokenKey: tokenKey, to: &state) }
        }
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
    func add(_ rows: [(id: Int64, apnsKey: Int64, tokenKey: Int64?)]) {
        guard !rows.isEmpty else { return }
        state.withLock { state in
            for row in rows { Self.add(id: row.id, apnsKey: row.apnsKey, tokenKey: row.tokenKey, to: &state) }
        }
    }

    /// Forgets the rows with an id below `firstKept` (retention deleted them).
    func dropRows(below firstKept: Int64) {
        state.withLock { state in
            while let row = state.rows.first, row.id < firstKept {
                let position = state.dropped
                state.rows.popFirst()
                state.dropped += 1
                if state.newestByAPNsKey[row.apnsKey] == row.id { state.newestByAPNsKey[row.apnsKey] = nil }
                // The token's newest row going means it has none left (its older rows went before it).
                if let tokenKey = row.tokenKey, state.newestByTokenKey[tokenKey] == position {
                    state.newestByTokenKey[tokenKey] = nil
                }
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
        return state.withLock { $0.newestByAPNsKey[key] }
    }

    /// The rows whose token has `key`, oldest first.
    func rows(tokenKey key: Int64) -> [Int64] {
        waitUntilReady()
        return state.withLock { state in
            var rows: [Int64] = []
            var position = state.newestByTokenKey[key] ?? -1
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

    /// How many rows are indexed (tests).
    var count: Int { state.withLock { $0.rows.count } }

    private static func add(id: Int64, apnsKey: Int64, tokenKey: Int64?, to state: inout State) {
        var previousWithToken = -1
        if let tokenKey {
            let position = state.nextPosition
            previousWithToken = state.newestByTokenKey.updateValue(position, forKey: tokenKey) ?? -1
        }
        state.rows.append(Row(id: id, apnsKey: apnsKey, tokenKey: tokenKey, previousWithToken: previousWithToken))
        state.newestByAPNsKey[apnsKey] = id
    }
}
