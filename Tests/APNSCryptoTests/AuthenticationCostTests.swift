import APNSCore
import APNSCrypto
import Testing

/// Measures per-request authentication cost: a token seen for the first time (parse + ECDSA verification) and a
/// token already verified (cache lookup). Prints the figures without asserting them (speed belongs to the
/// benchmark); asserts what makes the cached path cheap: it verifies no signature. Run in release for
/// representative numbers: see docs/authentication.md.
@Suite("Authentication cost: cold verification vs cached lookup")
struct AuthenticationCostTests {
    @Test("a cold token is verified once, a cached one never again, and the figures are printed")
    func coldVersusCached() throws {
        let fixture = AuthFixture(cacheCapacity: 100_000)
        let counting = Locked<CountingVerifier?>(nil)
        try fixture.addKey("KEYAAAAAA1", verifier: { key in
            let verifier = CountingVerifier(key)
            counting.withLock { $0 = verifier }
            return verifier
        })
        let verifications = { counting.withLock { $0?.count ?? 0 } }
        let coldCount = 300
        let tokens = try (0..<coldCount).map { try fixture.token("KEYAAAAAA1", age: Double($0)) }
        let clock = ContinuousClock()

        var accepted = 0
        let cold = clock.measure {
            for token in tokens where fixture.authenticator().authenticate(fixture.bearer(token)).isAccepted {
                accepted += 1
            }
        }
        #expect(accepted == coldCount)
        #expect(verifications() == coldCount)

        let warmCount = 20_000
        let connection = fixture.authenticator()
        let request = fixture.bearer(tokens[0])
        let warm = clock.measure {
            for _ in 0..<warmCount where connection.authenticate(request).isAccepted { accepted += 1 }
        }
        #expect(accepted == coldCount + warmCount)
        #expect(verifications() == coldCount)

        let key = fixture.signers["KEYAAAAAA1"]!.privateKey
        let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJUIn0".utf8)
        let signature = try key.rawSignature(for: message)
        let verify = clock.measure {
            for _ in 0..<coldCount { _ = key.publicKey.isValidSignature(signature, for: message) }
        }

        let coldPerOp = Self.microseconds(cold) / Double(coldCount)
        let warmPerOp = Self.microseconds(warm) / Double(warmCount)
        let verifyPerOp = Self.microseconds(verify) / Double(coldCount)
        print(
            "auth cost per request: cold (parse + verify + cache insert) \(Self.format(coldPerOp)) µs, "
                + "ES256 verify alone \(Self.format(verifyPerOp)) µs, cached \(Self.format(warmPerOp)) µs")
    }

    private static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    private static func format(_ value: Double) -> String {
        String(Double(Int(value * 100)) / 100)
    }
}
