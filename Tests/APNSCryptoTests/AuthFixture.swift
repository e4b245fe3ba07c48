import APNSCore
import APNSCrypto
import CoreTestSupport
import Foundation

/// Keys generated in the test, a registry, a shared cache, a test clock, and helpers to make tokens and requests.
final class AuthFixture {
    static let teamA = "TEAMAAAAA1"
    static let teamB = "TEAMBBBBB2"
    static let bundleA = "com.example.alpha"
    static let bundleB = "com.example.beta"

    struct Signer {
        var keyID: String
        var teamID: String
        var privateKey: ES256PrivateKey
        var signer: ProviderTokenSigner { ProviderTokenSigner(teamID: teamID, keyID: keyID, key: privateKey) }
    }

    let clock = TestClock()
    let registry = SigningKeyRegistry()
    let cache: VerifiedTokenCache
    var policy: ProviderTokenPolicy
    private(set) var signers: [String: Signer] = [:]

    init(policy: ProviderTokenPolicy = .init(), cacheCapacity: Int = 1000) {
        self.policy = policy
        cache = VerifiedTokenCache(capacity: cacheCapacity)
        try! registry.addBundleID(Self.bundleA, toTeam: Self.teamA)
        try! registry.addBundleID(Self.bundleB, toTeam: Self.teamB)
    }

    /// A fresh key registered in the registry.
    @discardableResult
    func addKey(
        _ keyID: String, team: String = AuthFixture.teamA, environment: KeyEnvironmentScope = .both,
        topics: Set<String>? = nil, relatedKeyID: String? = nil, verifier: ((ES256PublicKey) -> any ES256Verifier)? = nil
    ) throws -> Signer {
        let privateKey = try ES256PrivateKey.generate()
        let publicVerifier: any ES256Verifier = verifier?(privateKey.publicKey) ?? privateKey.publicKey
        registry.register(try SigningKey(
            teamID: team, keyID: keyID, environment: environment, topics: topics, relatedKeyID: relatedKeyID,
            verifier: publicVerifier))
        let signer = Signer(keyID: keyID, teamID: team, privateKey: privateKey)
        signers[keyID] = signer
        return signer
    }

    func authenticator() -> ProviderTokenAuthenticator {
        ProviderTokenAuthenticator(registry: registry, cache: cache, policy: policy)
    }

    var nowSeconds: Int64 { Int64(clock.now().secondsSinceEpoch) }

    /// A token by `keyID` issued `age` seconds ago.
    func token(_ keyID: String, age: Double = 0, form: ProviderTokenSigner.SignatureForm = .raw) throws -> String {
        try signers[keyID]!.signer.token(issuedAt: clock.now().adding(seconds: -age), signature: form)
    }

    func request(
        _ authorization: [String], topic: String? = AuthFixture.bundleA, pushType: PushType? = .alert,
        environment: APNsEnvironment = .development
    ) -> AuthRequest {
        AuthRequest(authorization: authorization, topic: topic, pushType: pushType, environment: environment, now: clock.now())
    }

    func bearer(_ token: String, topic: String? = AuthFixture.bundleA, environment: APNsEnvironment = .development) -> AuthRequest {
        request(["bearer \(token)"], topic: topic, environment: environment)
    }
}

extension AuthDecision {
    var reason: Reason? {
        if case .rejected(let reason, _) = self { return reason }
        return nil
    }

    var explanation: String? {
        if case .rejected(_, let explanation) = self { return explanation }
        return nil
    }

    var isAccepted: Bool { reason == nil }

    var warningCodes: [String] {
        if case .accepted(_, let warnings) = self { return warnings.map(\.code) }
        return []
    }

    var sender: AuthenticatedSender? {
        if case .accepted(let sender, _) = self { return sender }
        return nil
    }
}

/// Counts signature checks, to show which requests were served from the cache.
final class CountingVerifier: ES256Verifier, @unchecked Sendable {
    private let inner: any ES256Verifier
    private let lock = NSLock()
    private var calls = 0

    init(_ inner: any ES256Verifier) { self.inner = inner }

    var count: Int { lock.withLock { calls } }
    var publicKeyFingerprint: String { inner.publicKeyFingerprint }

    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        lock.withLock { calls += 1 }
        return inner.isValidSignature(signature, for: message)
    }
}

/// The repository's `certs/` folder.
let certsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("certs")
