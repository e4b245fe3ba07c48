import APNSCore
import CoreTestSupport
import APNSCrypto
import Testing

/// Bounded random-input testing of the token parser and authenticator (the libFuzzer target is not built: see
/// docs/authentication.md). Seeds are fixed so failures replay.
@Suite("Token parser fuzzing: arbitrary and mutated tokens never crash and never verify when signed bytes change")
struct TokenParserFuzzTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=. \"{}:,\u{0}é".unicodeScalars)

    @Test("random strings from a JWT-like alphabet and random bytes", arguments: [UInt64(1), 2, 3, 4])
    func randomInput(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let connection = fixture.authenticator()
        for _ in 0..<2500 {
            let length = Int.random(in: 0..<200, using: &generator)
            let text: String
            if Bool.random(using: &generator) {
                text = String(String.UnicodeScalarView((0..<length).map { _ in Self.alphabet.randomElement(using: &generator)! }))
            } else {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                text = String(decoding: bytes, as: UTF8.self)
            }
            _ = try? ProviderToken(parsing: text[...])
            let decision = connection.authenticate(fixture.bearer(text))
            #expect(decision.reason == .invalidProviderToken || decision.reason == .missingProviderToken, "\(text)")
        }
    }

    @Test("random JSON-ish segments encoded as base64url parse or fail cleanly", arguments: [UInt64(11), 12])
    func randomSegments(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let pieces = ["{", "}", "\"alg\"", "\"ES256\"", ":", ",", "\"iat\"", "1e400", "-0", "\"\\u0000\"", "[", "]",
                      "null", "true", "17000000000000000000000", "\"kid\"", "\"iss\"", "\"", "\\", "1.5"]
        for _ in 0..<3000 {
            let header = (0..<Int.random(in: 0..<8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let claims = (0..<Int.random(in: 0..<8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let token = base64URL(header) + "." + base64URL(claims) + ".c2ln"
            if let parsed = try? ProviderToken(parsing: token[...]) {
                #expect(parsed.headerJSON == header)
                #expect(parsed.claimsJSON == claims)
            }
        }
    }

    @Test("mutating one character of a valid token is accepted only when the signed bytes are unchanged",
          arguments: [UInt64(21), 22])
    func mutatedTokens(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let fixture = AuthFixture()
        try fixture.addKey("KEYAAAAAA1")
        let valid = try fixture.token("KEYAAAAAA1")
        let original = try ProviderToken(parsing: valid[...])
        var characters = Array(valid.unicodeScalars)
        for _ in 0..<600 {
            let index = Int.random(in: 0..<characters.count, using: &generator)
            let saved = characters[index]
            characters[index] = Self.alphabet.randomElement(using: &generator)!
            let mutated = String(String.UnicodeScalarView(characters))
            let decision = fixture.authenticator().authenticate(fixture.bearer(mutated))
            if decision.isAccepted {
                let parsed = try ProviderToken(parsing: mutated[...])
                #expect(parsed.signingInput == original.signingInput && parsed.signature == original.signature, "\(mutated)")
            }
            characters[index] = saved
        }
    }
}
