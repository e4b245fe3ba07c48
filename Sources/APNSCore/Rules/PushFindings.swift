import APNSJSON

/// What the pipeline found out about one push, whatever the answer: the request facts, the warnings, the sender,
/// and why it was answered as it was. Every `Verdict` case holds one.
///
/// A value, kept in one shared box (copy on write): a `Verdict` holding the fields inline was ~350 bytes, and
/// every look at its case (a switch, `status`, `findings`) copied all of them and retained each string and array;
/// now such a copy is one reference. Changing a field of a shared box copies the box first.
public struct PushFindings: Sendable, Hashable {
    /// The fields, as they are kept in the box.
    @usableFromInline
    struct Fields: Sendable, Hashable {
        @usableFromInline var facts: PushFacts
        @usableFromInline var warnings: [PushWarning]
        @usableFromInline var explanation: Optional<String>
        @usableFromInline var ruleID: Optional<String>
        @usableFromInline var sender: Optional<AuthenticatedSender>
        @usableFromInline var presentedToken: Optional<PresentedToken>
        @usableFromInline var environment: APNsEnvironment
        @usableFromInline var payload: Optional<JSONValue>
    }

    /// The box. Its fields change only through `PushFindings`'s accessors, when no other value holds it: never
    /// from two threads at once, hence no dynamic exclusivity checks.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline @exclusivity(unchecked) var fields: Fields

        @usableFromInline
        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    @usableFromInline var storage: Storage

    /// Copies the box first when another value shares it (then a field is changed in place).
    @inlinable
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    }

    /// Request facts as sent (nil fields when absent or not parseable).
    @inlinable public var facts: PushFacts {
        get { storage.fields.facts }
        _modify { makeUnique(); yield &storage.fields.facts }
    }

    /// Accepted-but-probably-wrong findings, in rule order (also on rejections, from the rules that ran).
    @inlinable public var warnings: [PushWarning] {
        get { storage.fields.warnings }
        _modify { makeUnique(); yield &storage.fields.warnings }
    }

    /// What to change, in plain words; nil on a clean 200.
    @inlinable public var explanation: String? {
        get { storage.fields.explanation }
        _modify { makeUnique(); yield &storage.fields.explanation }
    }

    /// The id of the rule that decided (`PushRule.id`, `strict.<code>`, `scripted`, `fault.<effect>`); nil on 200.
    @inlinable public var ruleID: String? {
        get { storage.fields.ruleID }
        _modify { makeUnique(); yield &storage.fields.ruleID }
    }

    /// The token-authenticated sender; nil without token authentication or when rejected before it.
    @inlinable public var sender: AuthenticatedSender? {
        get { storage.fields.sender }
        _modify { makeUnique(); yield &storage.fields.sender }
    }

    /// What authentication read of the provider token it refused (nil when it accepted one, or never ran).
    @inlinable public var presentedToken: PresentedToken? {
        get { storage.fields.presentedToken }
        _modify { makeUnique(); yield &storage.fields.presentedToken }
    }

    /// The environment the push was judged in.
    @inlinable public var environment: APNsEnvironment {
        get { storage.fields.environment }
        _modify { makeUnique(); yield &storage.fields.environment }
    }

    /// The body as the rules parsed it (nil when it is not JSON or the rules stopped before parsing), so later
    /// steps such as the Live Activity device reuse it instead of parsing the body again.
    @inlinable public var payload: JSONValue? {
        get { storage.fields.payload }
        _modify { makeUnique(); yield &storage.fields.payload }
    }

    public init(
        facts: PushFacts = PushFacts(), warnings: [PushWarning] = [], explanation: String? = nil,
        ruleID: String? = nil, sender: AuthenticatedSender? = nil, presentedToken: PresentedToken? = nil,
        environment: APNsEnvironment = .development, payload: JSONValue? = nil
    ) {
        storage = Storage(
            Fields(
                facts: facts, warnings: warnings, explanation: explanation, ruleID: ruleID, sender: sender,
                presentedToken: presentedToken, environment: environment, payload: payload))
    }

    /// Equal fields (the box itself is not compared).
    public static func == (lhs: PushFindings, rhs: PushFindings) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }
}
