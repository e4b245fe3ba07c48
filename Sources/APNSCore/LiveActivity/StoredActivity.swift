import APNSJSON

/// A token's activity as the device keeps it: the fields of `ActivitySnapshot` that the device remembers (not the
/// timeline, budget figures or counts it works out when asked), in about 120 bytes instead of 264. Times are
/// nanoseconds, with a bitmask (`present`) of which optional times and numbers are set, and the fields an update
/// token rarely has (attributes, a state note, a push-to-start token's issued tokens) sit in one shared box, absent
/// while they are all empty. The properties have `ActivitySnapshot`'s names and types, so the rules read and write
/// them alike; `snapshot` gives the public form.
struct StoredActivity: Sendable {
    var deviceToken: String
    var topic: String
    var contentState: JSONValue?
    private var rare: RareFields?
    private var startedAtNanos: Int64 = 0
    private var endedAtNanos: Int64 = 0
    private var staleDateNanos: Int64 = 0
    private var dismissAtNanos: Int64 = 0
    private var lastApplied = 0.0
    private var relevance = 0.0
    var role: TokenRole
    var state: ActivityPhase?
    var startSeen = false
    /// Which of the optional times and numbers above are set (`Present`).
    private var present: UInt8 = 0

    private enum Present: UInt8 {
        case startedAt = 1, endedAt = 2, staleDate = 4, dismissAt = 8, lastApplied = 16, relevance = 32
    }

    init(deviceToken: String, role: TokenRole, topic: String) {
        self.deviceToken = deviceToken
        self.role = role
        self.topic = topic
    }

    init(_ snapshot: ActivitySnapshot) {
        self.init(deviceToken: snapshot.deviceToken, role: snapshot.role, topic: snapshot.topic)
        attributesType = snapshot.attributesType
        attributes = snapshot.attributes
        contentState = snapshot.contentState
        state = snapshot.state
        stateNote = snapshot.stateNote
        lastAppliedTimestamp = snapshot.lastAppliedTimestamp
        startedAt = snapshot.startedAt
        startSeen = snapshot.startSeen
        endedAt = snapshot.endedAt
        staleDate = snapshot.staleDate
        dismissAt = snapshot.dismissAt
        relevanceScore = snapshot.relevanceScore
        startedByPushToStartToken = snapshot.startedByPushToStartToken
        issuedUpdateTokens = snapshot.issuedUpdateTokens
    }

    /// The public form, with an empty timeline and no budget figures (the device adds them).
    var snapshot: ActivitySnapshot {
        var snapshot = ActivitySnapshot(deviceToken: deviceToken, role: role, topic: topic)
        snapshot.attributesType = attributesType
        snapshot.attributes = attributes
        snapshot.contentState = contentState
        snapshot.state = state
        snapshot.stateNote = stateNote
        snapshot.lastAppliedTimestamp = lastAppliedTimestamp
        snapshot.startedAt = startedAt
        snapshot.startSeen = startSeen
        snapshot.endedAt = endedAt
        snapshot.staleDate = staleDate
        snapshot.dismissAt = dismissAt
        snapshot.relevanceScore = relevanceScore
        snapshot.startedByPushToStartToken = startedByPushToStartToken
        snapshot.issuedUpdateTokens = issuedUpdateTokens
        return snapshot
    }

    var startedAt: Timestamp? {
        get { timestamp(startedAtNanos, .startedAt) }
        set { startedAtNanos = set(newValue?.nanosecondsSinceEpoch, .startedAt) ?? 0 }
    }

    var endedAt: Timestamp? {
        get { timestamp(endedAtNanos, .endedAt) }
        set { endedAtNanos = set(newValue?.nanosecondsSinceEpoch, .endedAt) ?? 0 }
    }

    var staleDate: Timestamp? {
        get { timestamp(staleDateNanos, .staleDate) }
        set { staleDateNanos = set(newValue?.nanosecondsSinceEpoch, .staleDate) ?? 0 }
    }

    var dismissAt: Timestamp? {
        get { timestamp(dismissAtNanos, .dismissAt) }
        set { dismissAtNanos = set(newValue?.nanosecondsSinceEpoch, .dismissAt) ?? 0 }
    }

    var lastAppliedTimestamp: Double? {
        get { has(.lastApplied) ? lastApplied : nil }
        set { lastApplied = set(newValue, .lastApplied) ?? 0 }
    }

    var relevanceScore: Double? {
        get { has(.relevance) ? relevance : nil }
        set { relevance = set(newValue, .relevance) ?? 0 }
    }

    private func has(_ field: Present) -> Bool { present & field.rawValue != 0 }

    private func timestamp(_ nanos: Int64, _ field: Present) -> Timestamp? {
        has(field) ? Timestamp(nanosecondsSinceEpoch: nanos) : nil
    }

    /// Marks `field` set or not, and passes `value` through.
    private mutating func set<Value>(_ value: Value?, _ field: Present) -> Value? {
        if value == nil { present &= ~field.rawValue } else { present |= field.rawValue }
        return value
    }

    var attributesType: String? {
        get { rare?.fields.attributesType }
        set { updateRare { $0.attributesType = newValue } }
    }

    var attributes: JSONValue? {
        get { rare?.fields.attributes }
        set { updateRare { $0.attributes = newValue } }
    }

    var stateNote: String? {
        get { rare?.fields.stateNote }
        set {
            // An applied update clears the note every time: nothing to do when there are no rare fields.
            if newValue == nil && rare == nil { return }
            updateRare { $0.stateNote = newValue }
        }
    }

    var startedByPushToStartToken: String? {
        get { rare?.fields.startedByPushToStartToken }
        set { updateRare { $0.startedByPushToStartToken = newValue } }
    }

    var issuedUpdateTokens: [String] {
        get { rare?.fields.issuedUpdateTokens ?? [] }
        set { updateRare { $0.issuedUpdateTokens = newValue } }
    }

    /// Changes the rare fields in place when this value holds the only reference to their box, on a copy
    /// otherwise (value semantics), and drops the box when they are all empty again.
    private mutating func updateRare(_ change: (inout RareFields.Fields) -> Void) {
        var fields = rare?.fields ?? RareFields.Fields()
        change(&fields)
        if fields.isEmpty {
            rare = nil
        } else if isKnownUniquelyReferenced(&rare) {
            rare?.fields = fields
        } else {
            rare = RareFields(fields)
        }
    }

    private final class RareFields: @unchecked Sendable {
        struct Fields {
            var attributesType: String?
            var attributes: JSONValue?
            var stateNote: String?
            var startedByPushToStartToken: String?
            var issuedUpdateTokens: [String] = []

            var isEmpty: Bool {
                attributesType == nil && attributes == nil && stateNote == nil && startedByPushToStartToken == nil
                    && issuedUpdateTokens.isEmpty
            }
        }

        /// Written only through `updateRare`, when the box is not shared.
        var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }
}
