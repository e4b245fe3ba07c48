import APNSCore
import APNSCrypto
import Foundation
import Testing
@testable import APNSCommandLine

/// A-TOKEN: one provider token reused for 20–60 minutes; the cache renews at 50 minutes and after
/// ExpiredProviderToken, never more often.
@Suite struct ProviderTokenCacheTests {
    let clock = TestClock(Timestamp(secondsSinceEpoch: 1_767_225_600.9))
    let signer: ProviderTokenSigner

    init() throws {
        signer = ProviderTokenSigner(teamID: "TEAM123456", keyID: "ABC123DEFG", key: try ES256PrivateKey.generate())
    }

    static func claims(_ token: String) throws -> [String: Any] {
        let part = String(token.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let padded = part + String(repeating: "=", count: (4 - part.count % 4) % 4)
        let data = try #require(Data(base64Encoded: padded))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func reusesOneTokenForFiftyMinutes() throws {
        let cache = ProviderTokenCache(signer: signer, clock: clock)
        let first = try cache.token()
        #expect((try Self.claims(first)["iat"] as? NSNumber)?.int64Value == 1_767_225_600)
        clock.advance(seconds: 49 * 60 + 59)
        #expect(try cache.token() == first)
        clock.advance(seconds: 1)
        let second = try cache.token()
        #expect(second != first)
        #expect((try Self.claims(second)["iat"] as? NSNumber)?.int64Value == 1_767_225_600 + 50 * 60)
    }

    @Test func discardingTheExpiredTokenMakesANewOne() throws {
        let cache = ProviderTokenCache(signer: signer, clock: clock)
        let first = try cache.token()
        cache.discard("some other token")
        #expect(try cache.token() == first)
        cache.discard(first)
        let fresh = try cache.token()
        #expect(fresh != first)
        #expect(try cache.token() == fresh)
    }

    @Test func keysHaveTheirOwnTokens() throws {
        let other = ProviderTokenSigner(teamID: "TEAM999999", keyID: "KEY9999999", key: try ES256PrivateKey.generate())
        let cache = ProviderTokenCache(signers: [signer, other], clock: clock)
        let a = try cache.token(teamID: "TEAM123456", keyID: "ABC123DEFG")
        let b = try cache.token(teamID: "TEAM999999", keyID: "KEY9999999")
        #expect(a != b)
        #expect(try cache.token(teamID: "TEAM123456", keyID: "ABC123DEFG") == a)
        #expect(throws: CryptoError.self) { try cache.token(teamID: "TEAM123456", keyID: "NOPE") }
    }

    /// A clock set back (NTP step) does not keep a token "from the future" forever.
    @Test func clockGoingBackwardsRenews() throws {
        let cache = ProviderTokenCache(signer: signer, clock: clock)
        let first = try cache.token()
        clock.advance(seconds: -120)
        #expect(try cache.token() != first)
    }

    @Test func tokenVerifiesWithThePublicKey() throws {
        let key = try ES256PrivateKey.generate()
        let cache = ProviderTokenCache(signer: ProviderTokenSigner(teamID: "TEAM123456", keyID: "ABC123DEFG", key: key), clock: clock)
        let token = try cache.token()
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        let header = String(parts[0])
        #expect(header == "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ")  // {"alg":"ES256","kid":"ABC123DEFG"}
    }
}
