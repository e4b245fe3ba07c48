import APNSCore
import Foundation

/// The bytes of the in-memory store's packed records, back to back in chunks of `chunkSize` (a record never spans
/// two), instead of one heap array per record: no allocation or free per push, no allocator header and rounding
/// per record, and memory handed back a chunk at a time as retention drops the oldest records (records are appended
/// and dropped in id order, so a chunk goes once the first live record is past the last one it holds).
///
/// Written under the store's lock only. Readers decode outside it from a copy of `chunks` (a chunk stays allocated
/// while a copy holds it; the bytes a reader's entries point at are never written again).
struct PackedRecordArena: Sendable {
    /// Where a record's bytes are: chunk number (counted from the arena's first chunk ever) and offset in it. The
    /// bytes start with their count as a varint.
    struct Location: Sendable, Equatable {
        let chunk: UInt32
        let offset: UInt32
    }

    static let chunkSize = 256 << 10

    private(set) var chunks: [PackedChunk] = []
    /// The number of `chunks[0]`.
    private(set) var firstChunk = 0
    /// A released chunk no reader held, kept for the next one.
    private var spare: PackedChunk?

    /// Copies `bytes` (with their count in front) after the last record; `id` is the record's.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, id: Int64) -> Location {
        var prefix: (UInt64, UInt64) = (0, 0)
        let prefixCount = withUnsafeMutableBytes(of: &prefix) { Self.writeVarint(UInt64(bytes.count), into: $0) }
        let needed = prefixCount + bytes.count
        if chunks.isEmpty || chunks[chunks.count - 1].capacity - chunks[chunks.count - 1].used < needed {
            startChunk(holding: needed)
        }
        let chunk = chunks[chunks.count - 1]
        let offset = chunk.used
        withUnsafeBytes(of: &prefix) { prefix in
            (chunk.base + offset).initialize(from: prefix.bindMemory(to: UInt8.self).baseAddress!, count: prefixCount)
        }
        if let source = bytes.baseAddress { (chunk.base + offset + prefixCount).initialize(from: source, count: bytes.count) }
        chunk.used += needed
        chunk.lastID = id
        return Location(chunk: UInt32(firstChunk + chunks.count - 1), offset: UInt32(offset))
    }

    private mutating func startChunk(holding needed: Int) {
        if needed <= Self.chunkSize, let reused = spare {
            spare = nil
            reused.used = 0
            chunks.append(reused)
        } else {
            chunks.append(PackedChunk(capacity: max(Self.chunkSize, needed)))
        }
    }

    /// Frees the chunks that hold only records with ids below `firstLiveID` (never the chunk being written).
    mutating func release(below firstLiveID: Int64) {
        var released = 0
        while released < chunks.count - 1, chunks[released].lastID < firstLiveID { released += 1 }
        guard released > 0 else { return }
        if spare == nil, chunks[0].capacity == Self.chunkSize, isKnownUniquelyReferenced(&chunks[0]) {
            spare = chunks[0]
        }
        chunks.removeFirst(released)
        firstChunk += released
    }

    /// Forgets every record.
    mutating func removeAll() {
        firstChunk += chunks.count
        chunks = []
    }

    /// What readers need to find records' bytes outside the store's lock.
    var view: View { View(chunks: chunks, firstChunk: firstChunk) }

    struct View: Sendable {
        let chunks: [PackedChunk]
        let firstChunk: Int

        /// Runs `body` on the bytes of the record at `location`; nil when the location is not in this view.
        func withBytes<Result>(at location: Location, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
            let index = Int(location.chunk) - firstChunk
            guard chunks.indices.contains(index) else { return nil }
            let chunk = chunks[index]
            return withExtendedLifetime(chunk) { () -> Result? in
                let available = UnsafeBufferPointer(start: chunk.base + Int(location.offset), count: chunk.capacity - Int(location.offset))
                var reader = PackedRecordReader(bytes: available, pools: nil)
                guard let count = reader.varint(), count <= UInt64(available.count - reader.position) else { return nil }
                return body(UnsafeBufferPointer(rebasing: available[reader.position..<(reader.position + Int(count))]))
            }
        }
    }

    /// Writes `value` as a varint into `buffer` (at least 10 bytes); returns the count written.
    private static func writeVarint(_ value: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var value = value
        var count = 0
        while value >= 0x80 {
            buffer[count] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            count += 1
        }
        buffer[count] = UInt8(value)
        return count + 1
    }
}

/// One chunk of `PackedRecordArena`.
final class PackedChunk: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// Bytes written so far; the highest id whose record is in the chunk. Written under the store's lock only.
    var used = 0
    var lastID: Int64 = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }
}
