import APNSCore
import Foundation

/// What the store knows is wrong with it: `/api/health` says `degraded` with `reasons` while any is set.
public struct StoreProblems: Sendable, Equatable {
    /// Every row a read or a check could not decode, by id, with why (at most the rows the store holds).
    private var undecodableRows: [Int64: String] = [:]
    /// The last read SQLite refused because the file is damaged ("database disk image is malformed"); cleared by a
    /// check that passes.
    public var readFailure: String?
    /// What the last check found (`DeliveryStore.check`); empty when it passed or none ran.
    public var checkFailures: [String] = []
    /// What the store found when it opened that lost or ignored something (dropped WAL frames, retention metadata
    /// that failed its check): true, but not a fault now, so not a reason to be degraded.
    public var openNotes: [String] = []

    /// Rows listed by id at most.
    public static let listLimit = 100

    public init() {}

    /// The undecodable rows with the lowest ids (at most `listLimit`), oldest first.
    public var undecodable: [UndecodableDelivery] {
        undecodableRows.keys.sorted().prefix(Self.listLimit).map { UndecodableDelivery(id: $0, error: undecodableRows[$0]!) }
    }

    public var undecodableCount: Int { undecodableRows.count }

    /// Why the store is degraded, one sentence each; empty while it is not.
    public var reasons: [String] {
        var reasons: [String] = []
        if undecodableCount > 0 {
            let ids = undecodable.map { String($0.id) }.joined(separator: ", ")
            let more = undecodableCount > undecodable.count ? " and \(undecodableCount - undecodable.count) more" : ""
            reasons.append(
                "\(undecodableCount) stored deliver\(undecodableCount == 1 ? "y" : "ies") could not be decoded "
                    + "and \(undecodableCount == 1 ? "is" : "are") left out of every read (id \(ids)\(more))")
        }
        if let readFailure { reasons.append("a read of the delivery store failed: \(readFailure)") }
        if !checkFailures.isEmpty {
            reasons.append("the delivery store failed its check: \(checkFailures.prefix(5).joined(separator: "; "))")
        }
        return reasons
    }

    /// Adds rows found undecodable.
    mutating func add(undecodable rows: [UndecodableDelivery]) {
        for row in rows { undecodableRows[row.id] = row.error }
    }

    /// Forgets every undecodable row (the rows are gone, or a check lists them anew).
    mutating func forgetUndecodable() { undecodableRows.removeAll() }
}

/// What `DeliveryStore.check` found.
public struct StoreCheckReport: Sendable, Codable {
    /// `ok` or `damaged`.
    public var status: String
    /// SQLite's `quick_check` findings (empty when it said ok).
    public var problems: [String]
    /// Rows read and decoded, and those that could not be (the first `StoreProblems.listLimit`).
    public var rows: Int
    public var undecodable: [UndecodableDelivery]
    public var undecodableCount: Int
    public var seconds: Double

    public init(problems: [String], rows: Int, undecodable: [UndecodableDelivery], undecodableCount: Int, seconds: Double) {
        status = problems.isEmpty && undecodableCount == 0 ? "ok" : "damaged"
        self.problems = problems
        self.rows = rows
        self.undecodable = undecodable
        self.undecodableCount = undecodableCount
        self.seconds = seconds
    }
}
