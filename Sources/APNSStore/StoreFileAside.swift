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

    /// Puts back the WAL of a move that a crash stopped after the WAL went and before the file did (the WAL moves
    /// first): a `<path>.v<version>-moved-…-wal` or `<path>.damaged-…-wal` with no file of its name beside it, while
    /// `path` has no WAL, or an empty one. The store calls this before it opens `path`, so the file is read, and moved
    /// again if need be, with its WAL. Returns the WAL's name while aside (the newest such name); nil: none.
    static func restoreInterruptedMove(_ path: String) throws(DeliveryStoreError) -> String? {
        let files = FileManager.default
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + "."
        guard files.fileExists(atPath: path),
            ((try? files.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0) == 0,
            let names = try? files.contentsOfDirectory(atPath: directory)
        else { return nil }
        let orphans = names.filter { name in
            guard name.hasPrefix(prefix), name.hasSuffix("-wal") else { return false }
            let label = name.dropFirst(prefix.count)
            let isVersionMove = label.first == "v"
                && label.dropFirst().drop(while: \.isNumber).hasPrefix("-moved-")
            guard isVersionMove || label.hasPrefix("damaged-") else { return false }
            return !files.fileExists(atPath: (directory as NSString).appendingPathComponent(String(name.dropLast(4))))
        }
        guard let orphan = orphans.max() else { return nil }
        let aside = (directory as NSString).appendingPathComponent(String(orphan.dropLast(4)))
        do {
            if files.fileExists(atPath: path + "-wal") { try files.removeItem(atPath: path + "-wal") }  // empty
            try files.moveItem(atPath: aside + "-wal", toPath: path + "-wal")
            // SQLite rebuilds the shared-memory index from the WAL when the first connection opens.
            if files.fileExists(atPath: aside + "-shm") { try files.removeItem(atPath: aside + "-shm") }
        } catch {
            throw .sqlite(code: 14, message: "cannot put \(aside)-wal back beside \(path): \(error)")
        }
        return aside + "-wal"
    }

    /// `20261128T150405Z`: the record's ISO 8601 time (`DeliveryRecord.iso8601`) to the second, without separators.
    static func utcStamp(_ time: Timestamp) -> String {
        String(DeliveryRecord.iso8601(time).prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
    }
}
