import APNSCore
import APNSCrypto
import Foundation

/// Provider-token authentication shared by every connection: the key registry (changeable at run time through
/// the admin API), the cache of verified tokens and the policy. Each connection gets its own authenticator,
/// which holds that connection's binding (team, key, current token).
final class AuthenticationService: Sendable {
    let registry: SigningKeyRegistry
    let cache: VerifiedTokenCache
    let policy: ProviderTokenPolicy

    init(registry: SigningKeyRegistry, cache: VerifiedTokenCache = VerifiedTokenCache(), policy: ProviderTokenPolicy) {
        self.registry = registry
        self.cache = cache
        self.policy = policy
    }

    /// Builds the registry from the configured teams (plus the sample team of `certs/` when asked or when no team
    /// is configured). Relative key paths are resolved against the current directory.
    convenience init(configuration: MockConfiguration) throws {
        var teams = configuration.teams
        if configuration.sampleCredentials ?? teams.isEmpty {
            teams.append(.init(
                teamID: DefaultCredentials.teamID, bundleIDs: [DefaultCredentials.bundleID],
                keys: [.init(keyID: DefaultCredentials.keyID, p8: DefaultCredentials.signingKey)]))
        }
        let registry = try SigningKeyRegistry(
            configuration: KeyRegistryConfiguration(teams: teams),
            relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        self.init(registry: registry, policy: configuration.authentication)
    }

    func makeAuthenticator() -> ProviderTokenAuthenticator {
        ProviderTokenAuthenticator(registry: registry, cache: cache, policy: policy)
    }
}

typealias ConnectionTokenAuthenticator = ProviderTokenAuthenticator
