import APNSCore
import APNSCrypto
import Foundation
import Testing

@Suite("Verified-token cache: steady state is a lookup, bounded, expires with iat")
struct VerifiedTokenCacheTests {
    @Test("a token is verified once and then served from the cache on every connection")
    func verifiesOnce() throws {
        let fixture = AuthFixture()
        var counter: CountingVerifier?
        try fixture.addKey("KEYAAAAAA1") { key in
            let counting = CountingVerifier(key)
            counter = counting
            return counting
        }
        let token = try fixture.token("KEYAAAAAA1")
        for _ in 0..<3 {
            let connection = fixture.authenticator()
            for _ in 0..<10 { #expect(connection.authenticate(fixture.bearer(token)).isAccepted) }
        }
        #expect(counter?.count == 1)
        #expect(fixture.cache.count == 1)
    }

    @Test("invalid tokens are not cached")
    func invalidNotCached() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let stranger = ProviderTokenSigner(teamID: AuthFixture.teamA, keyID: "KEYAAAAAA1", key: try ES256PrivateKey.generate())
        _ = fixture.authenticator().authenticate(fixture.bearer(try stranger.token(issuedAt: fixture.clock.now())))
        _ = fixture.authenticator().authenticate(fixture.bearer(try fixture.token("KEYAAAAAA1", age: 4000)))
        #expect(fixture.cache.count == 0)
    }

    @Test("entries expire when the token does")
    func expires() throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let token = try fixture.token("KEYAAAAAA1", age: 3000)
        #expect(fixture.authenticator().authenticate(fixture.bearer(token)).isAccepted)
        #expect(fixture.cache.lookup(token[...], now: fixture.clock.now()) != nil)
        fixture.clock.advance(seconds: 600)
        #expect(fixture.cache.lookup(token[...], now: fixture.clock.now()) == nil)
        #expect(fixture.cache.count == 0)
    }

    @Test("the cache never holds more than its capacity and evicts the entry closest to expiry")
    func bounded() throws {
        let fixture = AuthFixture(cacheCapacity: 3)
        try fixture.addKey("KEYAAAAAA1")
        var tokens: [String] = []
        for age in [100.0, 50, 10, 0] {  // oldest first: the first expires soonest
            let token = try fixture.token("KEYAAAAAA1", age: age)
            tokens.append(token)
            #expect(fixture.authenticator().authenticate(fixture.bearer(token)).isAccepted)
            #expect(fixture.cache.count <= 3)
        }
        #expect(fixture.cache.lookup(tokens[0][...], now: fixture.clock.now()) == nil)
        #expect(fixture.cache.lookup(tokens[3][...], now: fixture.clock.now()) != nil)
    }

    @Test("a full cache frees a tenth of its capacity at once, the entries closest to expiry")
    func makesRoomForATenth() throws {
        let fixture = AuthFixture(cacheCapacity: 20)
        try fixture.addKey("KEYAAAAAA1")
        var tokens: [String] = []
        for age in stride(from: 210.0, through: 0, by: -10) {  // 22 tokens, oldest (soonest to expire) first
            let token = try fixture.token("KEYAAAAAA1", age: age)
            tokens.append(token)
            #expect(fixture.authenticator().authenticate(fixture.bearer(token)).isAccepted)
            if tokens.count == 21 { #expect(fixture.cache.count == 19) }
        }
        #expect(fixture.cache.count == 20, "the 22nd token took a freed entry without evicting another")
        let now = fixture.clock.now()
        #expect(tokens[..<2].allSatisfy { fixture.cache.lookup($0[...], now: now) == nil })
        #expect(tokens[2...].allSatisfy { fixture.cache.lookup($0[...], now: now) != nil })
    }

    @Test("many threads authenticating at once agree and leave one entry per token")
    func concurrentUse() async throws {
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let tokens = try (0..<4).map { try fixture.token("KEYAAAAAA1", age: Double($0)) }
        let registry = fixture.registry
        let cache = fixture.cache
        let now = fixture.clock.now()
        let accepted = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let connection = ProviderTokenAuthenticator(registry: registry, cache: cache)
                    let token = tokens[worker % tokens.count]
                    var count = 0
                    for _ in 0..<50 {
                        let request = AuthRequest(
                            authorization: ["bearer \(token)"], topic: AuthFixture.bundleA, pushType: .alert,
                            environment: .development, now: now)
                        if case .accepted = connection.authenticate(request) { count += 1 }
                    }
                    return count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(accepted == 400)
        #expect(cache.count == 4)
    }
}
