import APNSCore
import Foundation

/// The store file's checks: SQLite's `quick_check` (when the store opens, and on demand) and what the WAL held
/// beyond its last complete commit (reported when the store opens; read from the log itself, as SQLite's recovery
/// reads it, so that opening copies nothing: a checkpoint there held restarts after a crash for up to a second).
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

    /// What the WAL at `walPath` holds, read before SQLite opens it: `frames`, those of its current generation (the
    /// salts of its header), counted from the first to the first of another generation; `kept`, those SQLite keeps
    /// when it opens the log (up to the last commit frame whose checksum chain holds, as SQLite's WAL recovery
    /// reads it); and the bytes of a partial frame after them. nil when there is no WAL or no valid header.
    static func writtenWALFrames(walPath: String) -> (frames: Int, kept: Int, partialBytes: Int)? {
        guard let file = FileHandle(forReadingAtPath: walPath) else { return nil }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: 32), header.count == 32 else { return nil }
        let head = [UInt8](header)
        guard bigEndianWord(head, 0) & 0xFFFF_FFFE == 0x377F_0682 else { return nil }
        let bigEndianSums = bigEndianWord(head, 0) & 1 == 1
        let pageSize = Int(bigEndianWord(head, 8) == 1 ? 65_536 : bigEndianWord(head, 8))
        guard pageSize >= 512 else { return nil }
        var sums = checksum(head[0..<24], from: (0, 0), bigEndian: bigEndianSums)
        var chainHolds = sums == (bigEndianWord(head, 24), bigEndianWord(head, 28))
        let salts = (bigEndianWord(head, 16), bigEndianWord(head, 20))
        var frames = 0
        var kept = 0
        var partialBytes = 0
        while let frame = try? file.read(upToCount: 24 + pageSize), !frame.isEmpty {
            let bytes = [UInt8](frame)
            guard bytes.count == 24 + pageSize else {
                partialBytes = bytes.count
                break
            }
            guard (bigEndianWord(bytes, 8), bigEndianWord(bytes, 12)) == salts else { break }
            frames += 1
            if chainHolds {
                sums = checksum(
                    bytes[24...], from: checksum(bytes[0..<8], from: sums, bigEndian: bigEndianSums),
                    bigEndian: bigEndianSums)
                chainHolds = sums == (bigEndianWord(bytes, 16), bigEndianWord(bytes, 20))
                if chainHolds && bigEndianWord(bytes, 4) != 0 { kept = frames }  // a commit frame
            }
        }
        return (frames, kept, partialBytes)
    }

    private static func bigEndianWord(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// SQLite's WAL checksum: over 32-bit words in pairs, in the byte order the log's magic number gives.
    private static func checksum(
        _ bytes: ArraySlice<UInt8>, from start: (UInt32, UInt32), bigEndian: Bool
    ) -> (UInt32, UInt32) {
        var (s0, s1) = start
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                let first = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                let second = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let x0 = bigEndian ? UInt32(bigEndian: first) : UInt32(littleEndian: first)
                let x1 = bigEndian ? UInt32(bigEndian: second) : UInt32(littleEndian: second)
                s0 = s0 &+ x0 &+ s1
                s1 = s1 &+ x1 &+ s0
                offset += 8
            }
        }
        return (s0, s1)
    }

    /// The note for frames SQLite dropped when it opened the WAL (nil: none): those after the last complete commit,
    /// or after damage to the WAL. A crash in the middle of a commit leaves such frames (no delivery of that commit
    /// was answered 200); damage to the WAL loses what its dropped frames held.
    static func droppedFramesNote(walPath: String, written: (frames: Int, kept: Int, partialBytes: Int)) -> String? {
        let dropped = written.frames - written.kept
        guard dropped > 0 || written.partialBytes > 0 else { return nil }
        var parts: [String] = []
        if dropped > 0 { parts.append("\(dropped) frame\(dropped == 1 ? "" : "s") after its last complete commit") }
        if written.partialBytes > 0 { parts.append("a partial frame of \(written.partialBytes) bytes") }
        return "the write-ahead log \(walPath) held \(parts.joined(separator: " and ")), which SQLite dropped when "
            + "the store opened: an unfinished commit (a crash in the middle of one: none of its deliveries was "
            + "answered 200) or damage to the log (what those frames held is lost)"
    }
}
