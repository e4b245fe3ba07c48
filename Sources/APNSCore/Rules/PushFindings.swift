import APNSJSON

/// What the pipeline found out about one push, whatever the answer: the request facts, the warnings, the sender,
/// and why it was answered as it was. Every `Verdict` case holds one.
///
/// A value. The fields but the warnings are kept in one shared, immutable box: a `Verdict` holding them inline was
/// ~350 bytes, and every look at its case (a switch, `status`, `findings`) copied all of them and retained each
/// string and array; now such a copy is two references. Reading a field is a load from the box (a constant: no
/// run-time exclusivity check); changing one (rare: strict and scripted answers) puts the changed fields in a new
/// box. The warnings, which the pipeline appends to, are kept beside the box and change in place.
public struct PushFindings: Sendable, Hashable {
    /// The fields, as they are kept in the box.
    @usableFromInline
    struct Fields: Sendable, Hashable {
        @usableFromInline var facts: PushFacts
        @usableFromInline var explanation: Optional<String>
        @usableFromInline var ruleID: Optional<String>
        @usableFromInline var sender: Optional<AuthenticatedSender>
        @usableFromInline var presentedToken: Optional<PresentedToken>
        @usableFromInline var environment: APNsEnvironment
        @usableFromInline var payload: Optional<JSONValue>
    }

    /// The box; never changed once made.
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let fields: Fields

        @usableFromInline
        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    @usableFromInline var storage: Storage

    /// Accepted-but-probably-wrong findings, in rule order (also on rejections, from the rules that ran).
    public var warnings: [PushWarning]

    /// Puts `change` of the boxed fields in a new box.
    @inlinable
    mutating func changeFields(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    /// Request facts as sent (nil fields when absent or not parseable).
    @inlinable public var facts: PushFacts {
        get { storage.fields.facts }
        set { changeFields { $0.facts = newValue } }
    }

    /// What to change, in plain words; nil on a clean 200.
    @inlinable public var explanation: String? {
        get { storage.fields.explanation }
        set { changeFields { $0.explanation = newValue } }
    }

    /// The id of the rule that decided (`PushRule.id`, `strict.<code>`, `scripted`, `fault.<effect>`); nil on 200.
    @inlinable public var ruleID: String? {
        get { storage.fields.ruleID }
        set { changeFields { $0.ruleID = newValue } }
    }

    /// The token-authenticated sender; nil without token authentication or when rejected before it.
    @inlinable public var sender: AuthenticatedSender? {
        get { storage.fields.sender }
        set { changeFields { $0.sender = newValue } }
    }

    /// What authentication read of the provider token it refused (nil when it accepted one, or never ran).
    @inlinable public var presentedToken: PresentedToken? {
        get { storage.fields.presentedToken }
        set { changeFields { $0.presentedToken = newValue } }
    }

    /// The environment the push was judged in.
    @inlinable public var environment: APNsEnvironment {
        get { storage.fields.environment }
        set { changeFields { $0.environment = newValue } }
    }

    /// The body as the rules parsed it (nil when it is not JSON or the rules stopped before parsing), so later
    /// steps such as the Live Activity device reuse it instead of parsing the body again.
    @inlinable public var payload: JSONValue? {
        get { storage.fields.payload }
        set { changeFields { $0.payload = newValue } }
    }

    public init(
        facts: PushFacts = PushFacts(), warnings: [PushWarning] = [], explanation: String? = nil,
        ruleID: String? = nil, sender: AuthenticatedSender? = nil, presentedToken: PresentedToken? = nil,
        environment: APNsEnvironment = .development, payload: JSONValue? = nil
    ) {
        self.init(
            Fields(
                facts: facts, explanation: explanation, ruleID: ruleID, sender: sender, presentedToken: presentedToken,
                environment: environment, payload: payload),
            warnings: warnings)
    }

    @usableFromInline
    init(_ fields: Fields, warnings: [PushWarning]) {
        storage = Storage(fields)
        self.warnings = warnings
    }

    /// Equal fields (the box itself is not compared).
    public static func == (lhs: PushFindings, rhs: PushFindings) -> Bool {
        lhs.warnings == rhs.warnings && (lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
        hasher.combine(warnings)
    }
}
