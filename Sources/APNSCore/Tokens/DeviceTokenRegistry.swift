/// The device tokens the mock knows. Empty means "any well-formed token is a live device"; once tokens are
/// declared, pushes to them get APNs' token answers (A-REG) and undeclared tokens follow
/// `RuleConfiguration.undeclaredTokens`. Thread-safe; changed at run time by the admin API.
public final class DeviceTokenRegistry: Sendable {
    /// With nothing declared (the usual case) a lookup answers without taking the lock.
    private let entries: EmptinessTrackingLock<[String: DeclaredDeviceToken]>

    public init(_ tokens: [DeclaredDeviceToken] = []) {
        entries = EmptinessTrackingLock(
            Dictionary(tokens.map { ($0.token, $0) }, uniquingKeysWith: { _, last in last }))
    }

    /// What the registry says about `token` (case-insensitive).
    public enum Lookup: Sendable, Hashable {
        /// Nothing is declared: every well-formed token counts as a live device.
        case registryEmpty
        case undeclared
        case declared(DeclaredDeviceToken)
    }

    public func lookup(_ token: String) -> Lookup {
        if entries.isEmpty { return .registryEmpty }
        return entries.withLock { entries in
            if entries.isEmpty { return .registryEmpty }  // the usual case: no lower-cased copy of the token
            return entries[token.lowercased()].map(Lookup.declared) ?? .undeclared
        }
    }

    /// Adds `token` or replaces the entry with the same token.
    public func declare(_ token: DeclaredDeviceToken) {
        entries.withLock { $0[token.token] = token }
    }

    /// Removes a token; returns whether it was declared.
    @discardableResult
    public func remove(token: String) -> Bool {
        entries.withLock { $0.removeValue(forKey: token.lowercased()) != nil }
    }

    /// Changes a declared token's state (e.g. the app was uninstalled); returns false if it is not declared.
    @discardableResult
    public func setState(_ state: DeviceTokenState, forToken token: String) -> Bool {
        entries.withLock { entries in
            guard entries[token.lowercased()] != nil else { return false }
            entries[token.lowercased()]?.state = state
            return true
        }
    }

    /// Every declared token, sorted by token.
    public func all() -> [DeclaredDeviceToken] {
        entries.withLock { $0.values.sorted { $0.token < $1.token } }
    }

    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
