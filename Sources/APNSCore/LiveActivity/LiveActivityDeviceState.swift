import APNSJSON

/// The simulated device's memory as a plain value: per token, the activity it shows and the timeline of pushes.
/// All rules live here and take time as input; `LiveActivityDevice` only adds a lock around it.
public struct LiveActivityDeviceState: Sendable {
    public var configuration: LiveActivityConfiguration
    /// Every token's record, in the order the tokens were first seen (so listings are stable); tokens are never
    /// removed but all at once (`reset`). Kept out of the hash table, which then holds 8 bytes per bucket rather than
    /// a whole record: with 100,000 tokens the table has 262,144 buckets.
    var tokens: [TokenRecord] = []
    /// Where each token's record is in `tokens`; `table.keys[i]` is the token (in lower case) of `tokens[i]`.
    var table = TokenTable()
    /// Every timeline entry kept, as (token's slot, sequence) in the order appended, so the
    /// oldest across tokens goes first once more than `configuration.timelineTotalLimit` are kept. Slots of entries
    /// a token's own limit already dropped are skipped when reached.
    var timelineOrder = FrontDroppingArray<TimelineSlot>()
    /// Entries kept in every token's timeline together, and the next sequence number.
    var timelineEntries = 0
    var nextTimelineSequence = 0
    /// The topic of the last token seen first: new tokens with the same topic share its storage rather than each
    /// keeping a copy (100,000 tokens of one app: ~7 MB).
    private var lastTopic = ""
    /// Tokens forgotten because `configuration.tokenLimit` was reached (oldest first): a page's position is counted
    /// from the first token ever seen, so a reader's cursor stays put when the oldest are forgotten.
    var forgottenTokens = 0
    /// The change sequence of the last time activities were forgotten (a reset, the token limit): a reader asking
    /// what changed since before it is told to load a page again.
    var forgottenAtSequence = 0

    struct TimelineSlot: Sendable {
        let slot: Int32
        let sequence: Int
    }
    let makeUpdateToken: @Sendable () -> String

    struct TokenRecord: Sendable {
        /// The activity, without its timeline (the entries live in `timeline`).
        var activity: StoredActivity
        var timeline: TimelineRing
        /// Receive times of priority-10 pushes that counted against the budget.
        var priority10Deliveries: [Timestamp]

        init(snapshot: ActivitySnapshot, priority10Deliveries: [Timestamp] = []) {
            timeline = TimelineRing(snapshot.timeline)
            activity = StoredActivity(snapshot)
            self.priority10Deliveries = priority10Deliveries
        }

        init(activity: StoredActivity) {
            self.activity = activity
            timeline = TimelineRing()
            priority10Deliveries = []
        }

        /// The activity with its timeline, oldest entry first.
        var fullSnapshot: ActivitySnapshot {
            var full = activity.snapshot
            full.timeline = timeline.entries
            return full
        }
    }

    public init(
        configuration: LiveActivityConfiguration = LiveActivityConfiguration(),
        makeUpdateToken: @escaping @Sendable () -> String = UpdateTokenGenerator.random
    ) {
        self.configuration = configuration
        self.makeUpdateToken = makeUpdateToken
    }

    /// The token's activity as of `now` (time limits applied), or nil if the token was never seen.
    public mutating func activity(token: String, now: Timestamp) -> ActivitySnapshot? {
        guard let slot = table.slot(of: TokenKey(token.lowercased())) else { return nil }
        return activity(slot: slot, now: now)
    }

    /// The activities of `slots` as of `now` (time limits applied). The records are changed in `tokens` taken out
    /// of `self` (as `receive` does): `applyTimeLimits(&self.tokens[slot])` is an access to `tokens` overlapping
    /// the method's use of `self`, for which Swift copied the whole array once per activity (a listing of n
    /// activities cost n², 20,000 activities minutes under the device's lock).
    private mutating func activities(slots: some Sequence<Int>, now: Timestamp) -> [ActivitySnapshot] {
        var tokens: [TokenRecord] = []
        swap(&tokens, &self.tokens)
        var shown: [ActivitySnapshot] = []
        for slot in slots {
            applyTimeLimits(&tokens[slot], now: now)
            shown.append(snapshot(tokens[slot], now: now))
        }
        swap(&tokens, &self.tokens)
        return shown
    }

    private mutating func activity(slot: Int, now: Timestamp) -> ActivitySnapshot {
        activities(slots: CollectionOfOne(slot), now: now)[0]
    }

    /// Every token's activity, in the order the tokens were first seen.
    public mutating func allActivities(now: Timestamp) -> [ActivitySnapshot] {
        activities(slots: tokens.indices, now: now)
    }

    /// At most `limit` activities from `position` on (0 is the first token seen), in the order the tokens were
    /// first seen, with the position of the next page. Costs time in what it returns, not in what the device holds.
    public mutating func activities(from position: Int, limit: Int, now: Timestamp) -> ActivityPage {
        let start = min(max(position - forgottenTokens, 0), tokens.count)
        let end = start + min(max(limit, 0), tokens.count - start)
        return ActivityPage(
            activities: activities(slots: start..<end, now: now), next: end < tokens.count ? forgottenTokens + end : nil,
            total: tokens.count, changeSequence: nextTimelineSequence)
    }

    /// The activities a push changed since `sequence` (an `ActivityPage.changeSequence` or
    /// `ActivityChanges.changeSequence` read earlier), most recently changed first, at most `limit` of them.
    /// `complete` is false when the device cannot tell every change apart: more than `limit` activities changed,
    /// the device was reset, or the record of the oldest changes was trimmed (`timelineTotalLimit`); the reader
    /// then loads a page again. Reads at most `maxChangesExamined` of the device's notes of changes.
    public mutating func activities(changedSince sequence: Int, limit: Int, now: Timestamp) -> ActivityChanges {
        var slots: [Int] = []
        var seen = Set<Int32>()
        var examined = 0
        var reachedSequence = false
        for note in timelineOrder.elements.reversed() {
            if note.sequence < sequence {
                reachedSequence = true
                break
            }
            examined += 1
            if examined > Self.maxChangesExamined { break }
            if seen.insert(note.slot).inserted {
                slots.append(Int(note.slot))
                if slots.count > limit { break }
            }
        }
        var complete = slots.count <= limit && examined <= Self.maxChangesExamined && sequence > forgottenAtSequence
        if complete && !reachedSequence {
            // Every note is newer than `sequence`: complete only if the oldest note is the change right after it.
            complete = (timelineOrder.first?.sequence ?? nextTimelineSequence) == sequence
        }
        let shown = complete ? activities(slots: slots.filter { $0 < tokens.count }, now: now) : []
        return ActivityChanges(activities: shown, complete: complete, changeSequence: nextTimelineSequence)
    }

    /// The token of the activity (not a push-to-start token) whose newest timeline entry is the push `apnsID`,
    /// among the tokens of the device's `notes` newest changes: the activity a push just applied started or
    /// changed, found without reading every token.
    public func recentActivityToken(apnsID: String, notes: Int = 64) -> String? {
        for note in timelineOrder.elements.reversed().prefix(notes) {
            let index = Int(note.slot)
            guard index < tokens.count, tokens[index].activity.role == .activity,
                  tokens[index].timeline.newest?.apnsID == apnsID else { continue }
            return table.keys[index]
        }
        return nil
    }

    /// How many notes of changes `activities(changedSince:)` reads at most before it says "load a page again".
    public static let maxChangesExamined = 10_000

    /// Forgets every activity and timeline. The change sequence moves on, so a reader asking what changed since
    /// before the reset is told to load a page again.
    public mutating func reset() {
        tokens = []
        table = TokenTable()
        timelineOrder = FrontDroppingArray()
        timelineEntries = 0
        forgottenTokens = 0
        nextTimelineSequence += 1
        forgottenAtSequence = nextTimelineSequence
    }

    /// Makes room for one more token when `configuration.tokenLimit` are known: forgets the oldest tenth of them
    /// (at least one), their activities and timelines, and indexes the rest again. O(tokens) once per tenth of the
    /// limit of new tokens, so O(1) per new token on average.
    mutating func makeRoomForNewToken() {
        let limit = max(configuration.tokenLimit, 1)
        guard tokens.count >= limit else { return }
        let forgotten = min(tokens.count, max(1, limit / 10) + tokens.count - limit)
        for record in tokens[..<forgotten] { timelineEntries -= record.timeline.count }
        tokens.removeFirst(forgotten)
        table = TokenTable(keys: table.keys.dropFirst(forgotten))
        let shift = Int32(forgotten)
        timelineOrder = FrontDroppingArray(timelineOrder.elements.compactMap { note in
            note.slot >= shift ? TimelineSlot(slot: note.slot - shift, sequence: note.sequence) : nil
        })
        forgottenTokens += forgotten
        nextTimelineSequence += 1
        forgottenAtSequence = nextTimelineSequence
    }

    /// Applies one push and returns what the device did. The token's record is taken out of the table while the
    /// push is applied, so it is mutated in place (never copied with its timeline), then put back.
    public mutating func receive(_ push: LiveActivityPush, now: Timestamp) -> LiveActivityResult {
        switch receive(push, now: now, admit: { _ in true }) {
        case .received(let result): result
        case .refused: preconditionFailure("admit always returns true")
        }
    }

    /// Checks the payload, asks `admit` whether the push reaches the device at all (strict mode may refuse it on
    /// the payload's warnings), and only then applies it. A refused push leaves no trace on the device.
    public mutating func receive(
        _ push: LiveActivityPush, now: Timestamp, admit: ([PushWarning]) -> Bool
    ) -> LiveActivityReception {
        var prepared = PreparedPush(push, now: now, configuration: configuration)
        return receive(push, taking: &prepared, now: now, admit: admit)
    }

    /// `receive` with the work that needs only the push done already (`LiveActivityDevice` does it before it takes
    /// its lock); a check prepared with another configuration than the one in force is done again. The prepared
    /// check's report is taken rather than copied.
    mutating func receive(
        _ push: LiveActivityPush, taking prepared: inout PreparedPush, now: Timestamp, admit: ([PushWarning]) -> Bool
    ) -> LiveActivityReception {
        let key = prepared.key.text
        if tokens.count >= configuration.tokenLimit, table.slot(of: prepared.key) == nil { makeRoomForNewToken() }
        // The token's record is changed where it is, in `tokens` taken out of `self` while the push is applied (an
        // array's reference, so it stays the only one and nothing is copied), so the record and the device's other
        // fields are written side by side: one hash lookup, and no swap of the whole record out of its slot and
        // back (three copies of it each way, with a placeholder record copied in). A token seen for the first time
        // is appended at once and taken away again if the push is refused; the table learns it once applied.
        var tokens: [TokenRecord] = []
        swap(&tokens, &self.tokens)
        let slot: Int
        let isNew: Bool
        if let found = table.slot(of: prepared.key) {
            slot = found
            isNew = false
        } else {
            if push.topic != lastTopic { lastTopic = push.topic }
            slot = tokens.count
            isNew = true
            tokens.append(TokenRecord(activity: StoredActivity(deviceToken: key, role: .activity, topic: lastTopic)))
        }
        applyTimeLimits(&tokens[slot], now: now)
        let hasActivity = tokens[slot].activity.state != nil
        // A check prepared with another configuration or time is done again (only the check: not the key or id).
        if !prepared.check.wasPrepared(for: configuration, now: now) {
            prepared.check = PreparedPayloadCheck(push, now: now, configuration: configuration)
        }
        // The report is finished and read where it is (no copy of the report or its payload).
        prepared.check.finish(
            activityAttributesType: hasActivity ? tokens[slot].activity.attributesType : nil,
            activityAttributes: hasActivity ? tokens[slot].activity.attributes : nil,
            lastAppliedTimestamp: hasActivity ? tokens[slot].activity.lastAppliedTimestamp : nil)
        guard admit(prepared.check.report.warnings) else {
            // A known token keeps its record as it was (the time limits it had reached hold at `now` whoever reads
            // it); a new one leaves no trace.
            if isNew { tokens.removeLast() }
            swap(&tokens, &self.tokens)
            return .refused(warnings: prepared.check.report.warnings)
        }
        prepared.previousContentState = tokens[slot].activity.contentState
        let decision = decide(push, report: prepared.check.report, record: &tokens[slot], now: now)
        let entry = TimelineRing.Stored(
            receivedAt: now, apnsID: prepared.apnsID, event: prepared.check.eventText, priority: push.priority,
            timestamp: prepared.check.report.payload?.timestamp, outcome: decision.outcome,
            explanation: decision.explanation)
        // The entry goes into the timeline as made; a push-to-start's started activity gets a copy of it.
        let startedEntry = decision.startedActivity == nil ? nil : Optional(entry)
        appendToTimeline(entry, in: &tokens, slot: slot)
        swap(&tokens, &self.tokens)
        if isNew { table.append(prepared.key) }
        var shownKey = key
        if var started = decision.startedActivity, var copy = startedEntry {
            copy.explanation += " (received on push-to-start token \(key))"
            started.timeline.append(copy, sequence: 0, limit: configuration.timelineLimit)
            store(started, key: started.activity.deviceToken)
            shownKey = started.activity.deviceToken
        }
        trimTimelines()
        return .received(LiveActivityResult(
            outcome: decision.outcome, warnings: prepared.check.report.warnings, explanation: decision.explanation,
            issuedUpdateToken: decision.startedActivity?.activity.deviceToken, activityToken: shownKey))
    }

    /// The token as the table keys it (lower case); a token already in lower case, as senders send them, is kept
    /// as it is rather than copied.
    static func lowercasedToken(_ token: String) -> String {
        let hasUpper = token.utf8.withContiguousStorageIfAvailable(hasASCIICapital)
            ?? hasASCIICapital(Array(token.utf8))
        return hasUpper ? token.lowercased() : token
    }

    /// Whether `bytes` hold an ASCII capital (`A`–`Z`). Every byte is looked at, with no early exit, so the
    /// compiler tests 16 at a time: a token is 64 to 200 hex digits, and a byte-at-a-time test through a closure cost
    /// ~1,200 instructions per 160-digit token.
    static func hasASCIICapital<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        var capitals: UInt8 = 0
        for byte in bytes { capitals |= byte &- UInt8(ascii: "A") < 26 ? 1 : 0 }
        return capitals != 0
    }

    /// Puts `record` in the table under `key`, replacing what was there; its timeline joins the device-wide order.
    private mutating func store(_ record: TokenRecord, key: String) {
        var record = record
        let key = TokenKey(key)
        if let slot = table.slot(of: key) {
            timelineEntries -= tokens[slot].timeline.count
            adoptTimeline(of: &record, slot: slot)
            tokens[slot] = record
        } else {
            makeRoomForNewToken()
            adoptTimeline(of: &record, slot: tokens.count)
            add(record, key: key)
        }
    }

    /// Appends a token seen for the first time.
    mutating func add(_ record: TokenRecord, key: TokenKey) {
        table.append(key)
        tokens.append(record)
    }

    /// Appends `entry` to the timeline of the token at `slot` of `tokens` (the device's records, out of `self`
    /// while a push is applied) with the next sequence number and notes it in `timelineOrder`. The oldest entries
    /// across every token go first until one more fits under `configuration.timelineTotalLimit`, as
    /// `trimTimelines` would after: the same entries are kept. When pushes go round-robin to as many tokens as the
    /// limit, the oldest entry is the token's own, and its ring reuses that slot rather than growing to two slots
    /// with one vacated (100,000 tokens: ~10 MB).
    private mutating func appendToTimeline(
        _ entry: consuming TimelineRing.Stored, in tokens: inout [TokenRecord], slot: Int
    ) {
        dropOldestEntries(keepingAtMost: max(configuration.timelineTotalLimit, 1) - 1, in: &tokens)
        let sequence = nextTimelineSequence
        nextTimelineSequence += 1
        let dropped = tokens[slot].timeline.append(entry, sequence: sequence, limit: configuration.timelineLimit)
        timelineEntries += 1 - dropped
        timelineOrder.append(TimelineSlot(slot: Int32(truncatingIfNeeded: slot), sequence: sequence))
    }

    /// Drops the oldest entries across every token of `tokens` (the device's records) while more than `kept` are
    /// kept, skipping the slots of entries already gone.
    private mutating func dropOldestEntries(keepingAtMost kept: Int, in tokens: inout [TokenRecord]) {
        while timelineEntries > kept, let slot = timelineOrder.popFirst() {
            let index = Int(slot.slot)
            guard index < tokens.count, tokens[index].timeline.oldestSequence == slot.sequence else { continue }
            tokens[index].timeline.dropOldest()
            timelineEntries -= 1
        }
    }

    /// Numbers a timeline that enters the table whole (a started activity, a restored token) into the device-wide
    /// order and counts its entries.
    mutating func adoptTimeline(of record: inout TokenRecord, slot: Int) {
        let first = nextTimelineSequence
        nextTimelineSequence = record.timeline.renumber(from: first)
        let slot = Int32(truncatingIfNeeded: slot)
        for sequence in first..<nextTimelineSequence { timelineOrder.append(TimelineSlot(slot: slot, sequence: sequence)) }
        timelineEntries += record.timeline.count
    }

    /// Drops the oldest entries across every token while more than `configuration.timelineTotalLimit` are kept (the
    /// device remembers every token it has seen, so without this its memory grows with tokens × `timelineLimit`),
    /// then forgets stale slots when they outnumber the entries kept (passed slots go as they are dropped).
    mutating func trimTimelines() {
        var tokens: [TokenRecord] = []
        swap(&tokens, &self.tokens)
        dropOldestEntries(keepingAtMost: max(configuration.timelineTotalLimit, 1), in: &tokens)
        swap(&tokens, &self.tokens)
        if timelineOrder.storageCount > 2 * max(timelineEntries, 1024) {
            timelineOrder = FrontDroppingArray(timelineOrder.elements.filter { slot in
                let index = Int(slot.slot)
                guard index < tokens.count, let oldest = tokens[index].timeline.oldestSequence else { return false }
                return slot.sequence >= oldest
            })
        }
    }

    private func snapshot(_ record: TokenRecord, now: Timestamp) -> ActivitySnapshot {
        var snapshot = record.fullSnapshot
        snapshot.priority10PushesInLastHour = record.priority10Deliveries.count { $0 > now.adding(seconds: -3600) }
        snapshot.budgetPerHour = configuration.effectiveBudgetPerHour
        return snapshot
    }

    /// Stale at `stale-date`; ended 8 h after start; gone 12 h after start or at the dismissal time.
    /// Source: A-LADISP, A-LA.
    func applyTimeLimits(_ record: inout TokenRecord, now: Timestamp) {
        guard let phase = record.activity.state, let started = record.activity.startedAt else { return }
        if phase == .active || phase == .stale {
            let activeEnd = started.adding(seconds: configuration.activeLifetime)
            if now >= activeEnd {
                record.activity.state = .ended
                record.activity.endedAt = activeEnd
                record.activity.dismissAt = started.adding(seconds: configuration.totalLifetime)
                record.activity.stateNote = "ended by the \(hours(configuration.activeLifetime))-hour limit at "
                    + UTCDateText.format(activeEnd)
            } else if phase == .active, let stale = record.activity.staleDate, now >= stale {
                record.activity.state = .stale
                record.activity.stateNote = "stale since its stale-date \(UTCDateText.format(stale))"
            }
        }
        if record.activity.state == .ended, let dismissAt = record.activity.dismissAt, now >= dismissAt {
            record.activity.state = .dismissed
            record.activity.stateNote = "removed from the Lock Screen at \(UTCDateText.format(dismissAt))"
        }
    }

    func hours(_ seconds: Double) -> String {
        LiveActivityPayloadChecker.formatted(seconds / 3600)
    }

    struct Decision {
        var outcome: LiveActivityOutcome
        var explanation: String
        /// The activity a push-to-start created under a newly issued update token.
        var startedActivity: TokenRecord?
    }
}
