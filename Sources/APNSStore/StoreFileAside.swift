import APNSCore
import Foundation
import HTTPContract

/// Moving a store file aside: renamed with its `-wal` and `-shm` files, never deleted. `--recover` moves a damaged
/// file (`SQLiteStoreRecovery`), the store a file of another schema version (`SQLiteSchema.version`).
enum StoreFileAside {
    /// Renames the closed file at `path` and its `-wal` and `-shm` files to `<path>.<label>-<UTC time>` (plus the same
    /// suffixes; `-2`, `-3` … after the time when that name is taken), the WAL first, so SQLite never finds an old WAL
    /// beside a new file. Returns the new path of the file.
    static func move(_ path: String, label: String, at time: Timestamp) throws(DeliveryStoreError) -> String {
        let files = FileManager.default
        let base = "\(path).\(label)-\(utcStamp(time))"
        for attempt in 1...1_000 {
            let target = attempt == 1 ? base : "\(base)-\(attempt)"
            guard ["", "-wal", "-shm"].allSatisfy({ !files.fileExists(atPath: target + $0) }) else { continue }
            do {
                for suffix in ["-wal", "-shm", ""] where files.fileExists(atPath: path + suffix) {
                    try files.moveItem(atPath: path + suffix, toPath: target + suffix)
                }
            } catch {
                throw .sqlite(code: 14, message: "cannot move \(path) aside to \(target): \(error)")
            }
            return target
        }
        throw .sqlite(code: 14, message: "cannot move \(path) aside: 1,000 names beside it are taken")
    }

    /// `20261128T150405Z`: the record's ISO 8601 time (`DeliveryRecord.iso8601`) to the second, without separators.
    static func utcStamp(_ time: Timestamp) -> String {
        String(DeliveryRecord.iso8601(time).prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
    }
}
