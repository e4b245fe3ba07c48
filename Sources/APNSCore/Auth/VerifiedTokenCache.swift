import Synchronization


/// Verified provider tokens shared by every connection, keyed by the token text, so that steady-state
/// authentication is a hash lookup instead of an ECDSA verification.
///
/// Bounded: at capacity, expired entries go first, then those closest to expiry until a tenth is free. An entry expires when its token
/// does (`iat` + the token lifetime). Clients reuse one token for 20–60 minutes across many connections
/// (A-TOKEN), so a few thousand entries cover a busy mock; kalyke's token-per-push costs one verification each.
/// Thread-safe.
public final class VerifiedTokenCache: Sendable {
    private struct Entry {
        var token: VerifiedToken
        var expiresAt: Timestamp
    }

    public let capacity: Int
    private let entries: Locked<[String: Entry]>
    /// Changes whenever an entry is removed or replaced (expiry, eviction, `removeAll`, a re-verification), never
    /// when one is only added: while it holds still, every entry an authenticator has seen is still cached as it
    /// saw it (`ProviderTokenAuthenticator`'s per-connection memo of its last accepted token relies on this).
    private let removals = Atomic<UInt64>(0)

    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
        entries = Locked([:])
    }

    /// The verified token for `token`, unless it has expired by `now`.
    public func lookup(_ token: Substring, now: Timestamp) -> VerifiedToken? {
        entry(for: token, now: now)?.token
    }

    /// The cached verification of `token` and when it expires, unless it has expired by `now`.
    func entry(for token: Substring, now: Timestamp) -> (token: VerifiedToken, expiresAt: Timestamp)? {
        let key = String(token)
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard now < entry.expiresAt else {
                entries.removeValue(forKey: key)
                removals.add(1, ordering: .releasing)
                return nil
            }
            return (entry.token, entry.expiresAt)
        }
    }

    /// See `removals`: equal values mean no entry was removed or replaced in between.
    var removalCount: UInt64 { removals.load(ordering: .acquiring) }

    /// Remembers `verified` for `token` until `expiresAt`; keeps an existing entry (and its `firstSeen`).
    /// Returns the entry now cached.
    @discardableResult
    public func insert(_ verified: VerifiedToken, for token: Substring, expiresAt: Timestamp, now: Timestamp) -> VerifiedToken {
        insertEntry(verified, for: token, expiresAt: expiresAt, now: now).token
    }

    /// `insert`, also returning when the entry now cached expires.
    func insertEntry(
        _ verified: VerifiedToken, for token: Substring, expiresAt: Timestamp, now: Timestamp
    ) -> (token: VerifiedToken, expiresAt: Timestamp) {
        let key = String(token)
        return entries.withLock { entries in
            if let existing = entries[key], existing.token.keyRevision == verified.keyRevision, now < existing.expiresAt {
                return (existing.token, existing.expiresAt)
            }
            var kept = verified
            if let existing = entries[key] {
                kept.firstSeen = min(existing.token.firstSeen, verified.firstSeen)
                removals.add(1, ordering: .releasing)
            }
            if entries[key] == nil && entries.count >= capacity {
                Self.makeRoom(in: &entries, capacity: capacity, now: now)
                removals.add(1, ordering: .releasing)
            }
            entries[key] = Entry(token: kept, expiresAt: expiresAt)
            return (kept, expiresAt)
        }
    }

    public var count: Int { entries.withLock { $0.count } }

    public func removeAll() {
        entries.withLock { entries in
            entries.removeAll()
            removals.add(1, ordering: .releasing)
        }
    }

    /// Drops the expired entries, then those closest to expiry until a tenth of the capacity is free (at least one
    /// entry): a sender minting a token per push (kalyke) fills the cache for good, and freeing one entry at a time
    /// scanned and copied every entry on each of its pushes; a tenth at once costs that scan once per tenth.
    private static func makeRoom(in entries: inout [String: Entry], capacity: Int, now: Timestamp) {
        entries = entries.filter { now < $0.value.expiresAt }
        let kept = capacity - max(1, capacity / 10)
        guard entries.count > kept else { return }
        let soonest = entries.sorted { $0.value.expiresAt < $1.value.expiresAt }.prefix(entries.count - kept)
        for (key, _) in soonest { entries.removeValue(forKey: key) }
    }
}
