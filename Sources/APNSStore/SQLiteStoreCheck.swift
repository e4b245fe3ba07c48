import Foundation

/// The store file's checks: SQLite's `quick_check` (when the store opens, and on demand) and what the WAL held
/// beyond its last complete commit (reported when the store opens).
enum SQLiteStoreCheck {
    /// Findings listed at most.
    static let maxProblems = 20

    /// `PRAGMA quick_check`: the b-tree pages, their cells and free list, every page read once (no index
    /// comparison, which `integrity_check` adds and the block tables do not need: they have no index). Empty when
    /// it says `ok`. A file SQLite cannot read at all throws (`DeliveryStoreError.isDamage`).
    static func quickCheck(_ connection: SQLiteConnection) throws(DeliveryStoreError) -> [String] {
        let statement = try connection.prepare("PRAGMA quick_check(\(maxProblems))")
        try statement.bind([])
        defer { statement.reset() }
        var problems: [String] = []
        while try statement.step() {
            let line = String(decoding: statement.bytes(0), as: UTF8.self)
            if line != "ok" { problems.append(line) }
        }
        return problems
    }

    /// The frames SQLite holds valid in the WAL: the `log` column of a passive checkpoint (which copies what it can
    /// into the file, as the checkpointer would).
    static func validWALFrames(_ connection: SQLiteConnection) throws(DeliveryStoreError) -> Int {
        let statement = try connection.prepare("PRAGMA wal_checkpoint(PASSIVE)")
        try statement.bind([])
        defer { statement.reset() }
        return try statement.step() ? max(0, Int(statement.int64(1))) : 0
    }

    /// What the WAL at `walPath` holds as written, before SQLite opens it: the frames of its current generation (the
    /// salts of its header), counted from the first to the first of another generation, and the bytes of a partial
    /// frame after them. nil when there is no WAL or no valid header.
    static func writtenWALFrames(walPath: String) -> (frames: Int, partialBytes: Int)? {
        guard let file = FileHandle(forReadingAtPath: walPath) else { return nil }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: 32), header.count == 32 else { return nil }
        let bytes = [UInt8](header)
        func word(_ data: [UInt8], _ offset: Int) -> UInt32 {
            data[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        guard word(bytes, 0) & 0xFFFF_FFFE == 0x377F_0682 else { return nil }
        let pageSize = Int(word(bytes, 8) == 1 ? 65_536 : word(bytes, 8))
        guard pageSize >= 512 else { return nil }
        let salts = (word(bytes, 16), word(bytes, 20))
        let frameSize = 24 + pageSize
        let size = (try? file.seekToEnd()).map(Int.init) ?? 0
        var frames = 0
        var offset = 32
        while offset + frameSize <= size {
            guard (try? file.seek(toOffset: UInt64(offset))) != nil, let frameHeader = try? file.read(upToCount: 24),
                frameHeader.count == 24
            else { break }
            let frame = [UInt8](frameHeader)
            guard (word(frame, 8), word(frame, 12)) == salts else { return (frames, 0) }
            frames += 1
            offset += frameSize
        }
        return (frames, max(0, size - offset))
    }

    /// The note for frames SQLite dropped when it opened the WAL (nil: none): those after the last complete commit,
    /// or after damage to the WAL. A crash in the middle of a commit leaves such frames (no delivery of that commit
    /// was answered 200); damage to the WAL loses what its dropped frames held.
    static func droppedFramesNote(walPath: String, written: (frames: Int, partialBytes: Int), valid: Int) -> String? {
        let dropped = written.frames - valid
        guard dropped > 0 || written.partialBytes > 0 else { return nil }
        var parts: [String] = []
        if dropped > 0 { parts.append("\(dropped) frame\(dropped == 1 ? "" : "s") after its last complete commit") }
        if written.partialBytes > 0 { parts.append("a partial frame of \(written.partialBytes) bytes") }
        return "the write-ahead log \(walPath) held \(parts.joined(separator: " and ")), which SQLite dropped when "
            + "the store opened: an unfinished commit (a crash in the middle of one: none of its deliveries was "
            + "answered 200) or damage to the log (what those frames held is lost)"
    }
}
