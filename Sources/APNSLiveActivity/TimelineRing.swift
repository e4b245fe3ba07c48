/// The newest entries of one token's timeline, at most `limit` of them, kept in place: once full, a new entry
/// overwrites the oldest one, so a push costs the same however long the token's history is (no array shifted or
/// copied per push). `entries` gives them oldest first.
struct TimelineRing: Sendable {
    /// Entries in ring order: oldest at `oldest` once the ring has wrapped, else at 0.
    private var storage: [TimelineEntry]
    private var oldest = 0

    init(_ entries: [TimelineEntry] = []) {
        storage = entries
    }

    var count: Int { storage.count }

    /// Oldest first. Shares the storage (no copy) until the ring first wraps.
    var entries: [TimelineEntry] {
        oldest == 0 ? storage : Array(storage[oldest...] + storage[..<oldest])
    }

    /// Adds `entry` as the newest, dropping the oldest beyond `limit` (at least 1). A limit changed since the last
    /// append is honoured at once.
    mutating func append(_ entry: TimelineEntry, limit: Int) {
        let limit = max(limit, 1)
        if storage.count == limit {
            storage[oldest] = entry
            oldest = oldest + 1 == limit ? 0 : oldest + 1
            return
        }
        if oldest != 0 || storage.count > limit {
            storage = Array(entries.suffix(limit - 1))
            oldest = 0
        }
        storage.append(entry)
    }
}
