import APNSCore
import Foundation

extension SigningKeyRegistry {
    /// Builds a registry from the configuration: reads every `.p8` (keeping only its public key) or PEM public
    /// key, relative paths resolved against `baseDirectory`. Errors name the key and the fix.
    public convenience init(configuration: KeyRegistryConfiguration, relativeTo baseDirectory: URL) throws {
        self.init()
        for team in configuration.teams {
            for bundleID in team.bundleIDs ?? [] { try addBundleID(bundleID, toTeam: team.teamID) }
            if !AppleIdentifier.isValid(team.teamID) { throw KeyRegistryError.invalidTeamID(team.teamID) }
            for keyConfiguration in team.keys ?? [] {
                let verifier = try Self.verifier(for: keyConfiguration, relativeTo: baseDirectory)
                register(try SigningKey(
                    teamID: team.teamID, keyID: keyConfiguration.keyID,
                    environment: keyConfiguration.environment ?? .both,
                    topics: keyConfiguration.topics.map(Set.init), relatedKeyID: keyConfiguration.relatedKeyID,
                    verifier: verifier))
            }
        }
    }

    private static func verifier(
        for key: KeyRegistryConfiguration.Key, relativeTo baseDirectory: URL
    ) throws -> ES256PublicKey {
        let sources = [key.p8, key.publicKeyPath, key.publicKeyPEM].compactMap { $0 }
        guard !sources.isEmpty else { throw KeyRegistryError.keySourceMissing(keyID: key.keyID) }
        guard sources.count == 1 else { throw KeyRegistryError.keySourceAmbiguous(keyID: key.keyID) }
        let loaded: Result<ES256PublicKey, CryptoError>
        if let path = key.p8 {
            loaded = Result { () throws(CryptoError) in
                try ES256PublicKey(derivedFromPrivateKeyPEM: readText(path, relativeTo: baseDirectory))
            }
        } else if let path = key.publicKeyPath {
            loaded = Result { () throws(CryptoError) in try ES256PublicKey(pem: readText(path, relativeTo: baseDirectory)) }
        } else {
            loaded = Result { () throws(CryptoError) in try ES256PublicKey(pem: key.publicKeyPEM ?? "") }
        }
        switch loaded {
        case .success(let verifier): return verifier
        case .failure(let error): throw KeyRegistryError.unreadableKey(keyID: key.keyID, detail: error.description)
        }
    }

    private static func readText(_ path: String, relativeTo baseDirectory: URL) throws(CryptoError) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appendingPathComponent(path)
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .unreadableFile(path: url.path, detail: error.localizedDescription)
        }
    }
}
