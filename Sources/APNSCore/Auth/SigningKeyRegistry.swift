import Synchronization


/// The teams, bundle IDs and signing keys the mock knows, shared by every connection and mutable at run time
/// (configuration at start-up, the admin API later). Thread-safe.
///
/// Key IDs are unique across teams, as Apple's are. Every change to a key gives it a new `revision`, so cached
/// verifications made with an older version of the key are not reused.
public final class SigningKeyRegistry: Sendable {
    /// A key as registered, with the revision that identifies this version of it.
    public struct Entry: Sendable {
        public var key: SigningKey
        public var revision: UInt64
    }

    private struct State {
        var keys: [String: Entry] = [:]
        var bundleIDsByTeam: [String: Set<String>] = [:]
        var nextRevision: UInt64 = 1
    }

    private let state = Locked(State())
    /// Counts changes of any kind (keys, bundle IDs), made under the lock: equal values mean nothing changed in
    /// between (`ProviderTokenAuthenticator`'s per-connection memo of its last accepted token relies on this).
    private let changes = Atomic<UInt64>(0)

    /// See `changes`.
    var changeCount: UInt64 { changes.load(ordering: .acquiring) }

    private func noteChange() { changes.add(1, ordering: .releasing) }

    public init() {}

    /// Registers `keys` and the bundle IDs of each team (`[teamID: bundleIDs]`).
    public convenience init(keys: [SigningKey], bundleIDsByTeam: [String: Set<String>] = [:]) throws(KeyRegistryError) {
        self.init()
        for (teamID, bundleIDs) in bundleIDsByTeam {
            for bundleID in bundleIDs { try addBundleID(bundleID, toTeam: teamID) }
        }
        for key in keys { register(key) }
    }

    /// Adds `key`, replacing any key with the same Key ID.
    public func register(_ key: SigningKey) {
        state.withLock { state in
            state.keys[key.keyID] = Entry(key: key, revision: state.nextRevision)
            state.nextRevision += 1
            if state.bundleIDsByTeam[key.teamID] == nil { state.bundleIDsByTeam[key.teamID] = [] }
            noteChange()
        }
    }

    /// Removes the key; tokens it signed stop verifying at once (cached verifications included).
    @discardableResult
    public func removeKey(id keyID: String) -> Bool {
        state.withLock { state in
            defer { noteChange() }
            return state.keys.removeValue(forKey: keyID) != nil
        }
    }

    /// Gives `teamID` the bundle ID `bundleID` (the topics its team-scoped keys may push to).
    public func addBundleID(_ bundleID: String, toTeam teamID: String) throws(KeyRegistryError) {
        guard AppleIdentifier.isValid(teamID) else { throw .invalidTeamID(teamID) }
        state.withLock { state in
            state.bundleIDsByTeam[teamID, default: []].insert(bundleID)
            noteChange()
        }
    }

    @discardableResult
    public func removeBundleID(_ bundleID: String, fromTeam teamID: String) -> Bool {
        state.withLock { state in
            defer { noteChange() }
            return state.bundleIDsByTeam[teamID]?.remove(bundleID) != nil
        }
    }

    /// The key with this Key ID, or nil.
    public func entry(forKeyID keyID: String) -> Entry? {
        state.withLock { $0.keys[keyID] }
    }

    /// The bundle IDs registered for the team (empty when none are: then topics are not checked for it).
    public func bundleIDs(ofTeam teamID: String) -> Set<String> {
        state.withLock { $0.bundleIDsByTeam[teamID] ?? [] }
    }

    /// Every key, sorted by team then Key ID, without key material.
    public var keySummaries: [SigningKeySummary] {
        state.withLock { state in
            state.keys.values.map(\.key.summary).sorted { ($0.teamID, $0.keyID) < ($1.teamID, $1.keyID) }
        }
    }

    /// Every team with its bundle IDs.
    public var bundleIDsByTeam: [String: Set<String>] {
        state.withLock { $0.bundleIDsByTeam }
    }

    /// Key IDs of the registered keys, for explanations ("the mock knows keys …").
    var keyIDs: [String] {
        state.withLock { $0.keys.keys.sorted() }
    }
}
