import APNSCore
import Foundation

/// Where delivery records go and how they come back (reads: `DeliveryReader`). Implementations:
/// `SQLiteDeliveryStore` (durable, default) and `InMemoryDeliveryStore` (tests, `--in-memory`). All methods are
/// thread-safe.
///
/// Durability contract: a delivery answered 200 is durable before its response is sent. `append`
/// returns at once; the store commits records in groups and calls each completion after the group's COMMIT.
public protocol DeliveryStore: DeliveryReader, AnyObject, Sendable where ReadError == DeliveryStoreError {
    /// Queues `record` (its `id` is ignored), assigns and returns its id. `completion` runs on the store's writer
    /// thread once the record is durable (`.success(id)`) or could not be written (`.failure`). Keep it short:
    /// hand the response to the transport and return.
    @discardableResult
    func append(
        _ record: DeliveryRecord, completion: @escaping @Sendable (Result<Int64, DeliveryStoreError>) -> Void
    ) -> Int64

    /// Stores `record` now, when the engine knows at once that it is durable (the in-memory store): its id, or why
    /// it was not stored, with no completion kept for later. nil: this engine stores later; nothing was stored, and
    /// the caller uses `append(_:completion:)`. Default: nil.
    func appendAtOnce(_ record: DeliveryRecord) -> Result<Int64, DeliveryStoreError>?

    // Reads (`deliveries`, `delivery(id:)`, `delivery(apnsID:)`, `waitForNext`, `exportJSONLines`) come from
    // `DeliveryReader`. A store's `waitForNext` returns only durable records and clamps `timeout` to `maxWait`.

    /// Number of records stored now.
    func count() throws(DeliveryStoreError) -> Int

    /// The highest id that is durable (0 when nothing was ever stored). Ids are never reused, even after `reset`.
    var latestID: Int64 { get }

    /// Deletes every record written so far; returns how many were deleted. Ids keep counting up.
    @discardableResult
    func reset() throws(DeliveryStoreError) -> Int

    /// Blocks until everything appended before the call is durable.
    func flush()

    /// Flushes, stops the writer and releases resources. Later appends fail with `.closed`.
    func close()

    /// What is wrong with the store now (rows it could not decode, reads of a damaged file, a failed check) and what
    /// it found when it opened. Default: nothing.
    var problems: StoreProblems { get }

    /// Checks the store on demand: the file (SQLite's quick check) and every row's record. What it finds replaces
    /// what reads had found in `problems`. Default: nothing to check.
    func check() throws(DeliveryStoreError) -> StoreCheckReport
}

/// The longest a single `waitForNext` may block (long polls re-issue after this).
public let maxWait: Duration = .seconds(60)

extension DeliveryStore {
    public func newestID() -> Int64 { latestID }

    public var problems: StoreProblems { StoreProblems() }

    public func appendAtOnce(_ record: DeliveryRecord) -> Result<Int64, DeliveryStoreError>? { nil }

    public func check() throws(DeliveryStoreError) -> StoreCheckReport {
        StoreCheckReport(problems: [], rows: try count(), undecodable: [], undecodableCount: 0, seconds: 0)
    }

    /// Group-commit append: `onDurable` runs after the record's COMMIT. If the record cannot be written, `onDurable`
    /// never runs and the error goes to standard error; callers that must answer in that case use
    /// `append(_:completion:)` and send 500.
    @discardableResult
    public func append(_ record: DeliveryRecord, onDurable: @escaping @Sendable () -> Void) -> Int64 {
        append(record) { result in
            switch result {
            case .success: onDurable()
            case .failure(let error):
                FileHandle.standardError.write(Data("apns-mock: delivery not stored: \(error)\n".utf8))
            }
        }
    }
}

/// What can go wrong in a store. SQLite errors carry SQLite's own message.
public enum DeliveryStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case sqlite(code: Int32, message: String)
    case corruptRecord(id: Int64, detail: String)
    /// The store file failed its check when it opened (`SQLiteStoreCheck`) or SQLite found it malformed:
    /// `path` is the file, `detail` what was found.
    case damaged(path: String, detail: String)
    case closed

    public var description: String {
        switch self {
        case .sqlite(let code, let message): return "SQLite error \(code): \(message)"
        case .corruptRecord(let id, let detail): return "delivery \(id) could not be decoded: \(detail)"
        case .damaged(let path, let detail): return "the delivery store \(path) is damaged: \(detail)"
        case .closed: return "the delivery store is closed"
        }
    }

    /// SQLite's codes for a damaged file: SQLITE_CORRUPT (11, "database disk image is malformed") and
    /// SQLITE_NOTADB (26, "file is not a database").
    public var isDamage: Bool {
        switch self {
        case .sqlite(let code, _): code == 11 || code == 26
        case .damaged: true
        default: false
        }
    }
}

/// How much the store keeps. Enforced by the writer after each group commit, so disk and memory stay flat under
/// sustained load. The in-memory store keeps exactly this; the SQLite store drops whole blocks of rows, so it keeps
/// the newest `maxCount` to `maxCount` + one block (`SQLiteSchema.blockSize`) less one, and a record at least `maxAge`
/// and at most about `maxAge` × 17/16 (`SQLiteDeliveryWriter.applyRetention`).
public struct RetentionPolicy: Sendable, Hashable {
    /// Keep this many records (the newest).
    public var maxCount: Int
    /// Drop records received longer ago than this (nil: no age limit).
    public var maxAge: Duration?

    public init(maxCount: Int = 100_000, maxAge: Duration? = .seconds(24 * 3600)) {
        self.maxCount = maxCount
        self.maxAge = maxAge
    }
}
