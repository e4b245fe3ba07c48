
/// The newest entries of one token's timeline, at most `limit` of them, kept in place: once full, a new entry
/// overwrites the oldest one, so a push costs the same however long the token's history is (no array shifted or
/// copied per push). `entries` gives them oldest first.
///
/// Each entry carries the device-wide sequence number it was appended with, so the device can drop the oldest
/// entry across every token (`dropOldest`, `oldestSequence`) when it keeps more than its total limit
/// (`LiveActivityDeviceState.trimTimelines`).
struct TimelineRing: Sendable {
    /// An entry as kept, with its sequence number: one array (one allocation per token) holds both, and the
    /// `apns-id` takes 16 bytes rather than a string of its own per entry. The device builds it directly from the
    /// push (no `TimelineEntry` with the `apns-id`'s string made and dropped per push).
    struct Stored: Sendable {
        var receivedAt: Timestamp
        var apnsID: CompactAPNsID
        // `Optional<…>`, not `T?`: a stored `var` of type `T?` starts as nil, so an init that sets it copied the
        // whole value once more (every field retained, then released).
        var event: Optional<String>
        var priority: Int
        var timestamp: Optional<Double>
        var outcome: LiveActivityOutcome
        var explanation: String
        /// Set by `append`.
        var sequence = 0

        var entry: TimelineEntry {
            TimelineEntry(
                receivedAt: receivedAt, apnsID: apnsID.text, event: event, priority: priority, timestamp: timestamp,
                outcome: outcome, explanation: explanation)
        }
    }

    /// Slots in ring order: the oldest entry at `start`, `count` entries from there (wrapping).
    private var storage: [Stored]
    private var start = 0
    private(set) var count: Int

    init(_ entries: [TimelineEntry] = [], firstSequence: Int = 0) {
        storage = entries.enumerated().map { index, entry in
            var stored = Stored(entry)
            stored.sequence = firstSequence + index
            return stored
        }
        count = entries.count
    }

    /// Oldest first.
    var entries: [TimelineEntry] {
        (0..<count).map { storage[(start + $0) % storage.count].entry }
    }

    /// The newest entry (nil when empty).
    var newest: TimelineEntry? { count > 0 ? storage[(start + count - 1) % storage.count].entry : nil }

    /// Slots allocated, used or not.
    var slotCount: Int { storage.count }

    /// The sequence number of the oldest entry (nil when empty).
    var oldestSequence: Int? { count > 0 ? storage[start].sequence : nil }

    /// Adds `entry` as the newest, with the device-wide `sequence`, dropping the oldest beyond `limit` (at least
    /// 1); a limit changed since the last append is honoured at once. Returns how many entries it dropped. The
    /// entry is taken, not lent: a lent one was copied twice (to set its sequence, then into its slot), each copy
    /// retaining its strings.
    @discardableResult
    mutating func append(_ entry: consuming Stored, sequence: Int, limit: Int) -> Int {
        entry.sequence = sequence
        let limit = max(limit, 1)
        if count == limit && count == storage.count {  // full: the new entry takes the oldest one's slot
            storage[start] = entry
            start = (start + 1) % storage.count
            return 1
        }
        var dropped = 0
        while count >= limit {
            dropOldest()
            dropped += 1
        }
        if count < storage.count {
            storage[(start + count) % storage.count] = entry
        } else {
            linearize()
            storage.append(entry)
        }
        count += 1
        return dropped
    }

    /// Drops the oldest entry; its strings go at once, and the slots shrink when mostly empty. A ring of one slot
    /// keeps it vacated: when pushes go round-robin to as many tokens as the device's total limit, each push
    /// empties its token's ring just before it appends (`LiveActivityDeviceState.makeRoom`), which would otherwise
    /// free the slot and allocate it again.
    mutating func dropOldest() {
        guard count > 0 else { return }
        storage[start] = Self.vacated
        start = (start + 1) % storage.count
        count -= 1
        if count == 0 {
            if storage.count > 1 { storage = [] }
            start = 0
        } else if storage.count >= 64 && count * 4 < storage.count {
            linearize()
        }
    }

    /// Gives every entry a new sequence number, oldest first, from `first` (a restored timeline joins the
    /// device-wide order); returns the next free number.
    mutating func renumber(from first: Int) -> Int {
        linearize()
        for index in storage.indices { storage[index].sequence = first + index }
        return first + count
    }

    /// The entries in order from slot 0, with no free slots.
    private mutating func linearize() {
        guard start != 0 || count != storage.count else { return }
        storage = (0..<count).map { storage[(start + $0) % storage.count] }
        start = 0
    }

    /// What a dropped entry's slot holds until it is reused (nothing allocated).
    private static let vacated = Stored(
        receivedAt: .zero, apnsID: .text(""), event: nil, priority: 0, timestamp: nil, outcome: .applied,
        explanation: "", sequence: -1)
}

extension TimelineRing.Stored {
    /// A restored entry (its memberwise initializer stays, as it is declared outside the type).
    init(_ entry: TimelineEntry) {
        self.init(
            receivedAt: entry.receivedAt, apnsID: CompactAPNsID(entry.apnsID), event: entry.event,
            priority: entry.priority, timestamp: entry.timestamp, outcome: entry.outcome,
            explanation: entry.explanation)
    }
}
