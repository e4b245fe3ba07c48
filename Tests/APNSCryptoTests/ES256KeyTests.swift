import APNSCore
import APNSCrypto
import Foundation
import Testing

@Suite("ES256 keys over OpenSSL: loading, deriving, signing, verifying")
struct ES256KeyTests {
    let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJUIn0".utf8)

    @Test("a generated key writes PKCS#8 PEM that reads back to the same public key")
    func generatedKeyRoundTrips() throws {
        let key = try ES256PrivateKey.generate()
        let pem = try key.pkcs8PEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let reloaded = try ES256PrivateKey(pem: pem)
        #expect(reloaded.publicKey.publicKeyFingerprint == key.publicKey.publicKeyFingerprint)
        let derived = try ES256PublicKey(derivedFromPrivateKeyPEM: pem)
        #expect(derived.publicKeyFingerprint == key.publicKey.publicKeyFingerprint)
        #expect(derived.pemRepresentation.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(try ES256PublicKey(pem: derived.pemRepresentation).publicKeyFingerprint == derived.publicKeyFingerprint)
    }

    @Test("two generated keys differ")
    func generatedKeysDiffer() throws {
        #expect(try ES256PrivateKey.generate().publicKey.publicKeyFingerprint
            != ES256PrivateKey.generate().publicKey.publicKeyFingerprint)
    }

    @Test("raw r||s signatures are 64 bytes and verify; DER signatures verify too")
    func rawAndDERVerify() throws {
        let key = try ES256PrivateKey.generate()
        let raw = try key.rawSignature(for: message)
        let der = try key.derSignature(for: message)
        #expect(raw.count == 64)
        #expect(der.first == 0x30 && (8...72).contains(der.count))
        #expect(key.publicKey.isValidSignature(raw, for: message))
        #expect(key.publicKey.isValidSignature(der, for: message))
    }

    @Test("a signature does not verify for another message or another key, or when truncated or altered")
    func rejectsBadSignatures() throws {
        let key = try ES256PrivateKey.generate()
        let other = try ES256PrivateKey.generate()
        let raw = try key.rawSignature(for: message)
        let der = try key.derSignature(for: message)
        #expect(!key.publicKey.isValidSignature(raw, for: message + [0x2E]))
        #expect(!other.publicKey.isValidSignature(raw, for: message))
        #expect(!other.publicKey.isValidSignature(der, for: message))
        #expect(!key.publicKey.isValidSignature(Array(raw.prefix(63)), for: message))
        #expect(!key.publicKey.isValidSignature(Array(der.dropLast()), for: message))
        var flipped = raw
        flipped[10] ^= 0x01
        #expect(!key.publicKey.isValidSignature(flipped, for: message))
        #expect(!key.publicKey.isValidSignature([], for: message))
        #expect(!key.publicKey.isValidSignature([UInt8](repeating: 0, count: 64), for: message))
    }

    @Test("the repository's sample AuthKey_ABC123DEFG.p8 derives the committed public key")
    func sampleKeyMatchesItsPublicKey() throws {
        let p8 = try String(contentsOf: certsDirectory.appendingPathComponent("AuthKey_ABC123DEFG.p8"), encoding: .utf8)
        let pub = try String(contentsOf: certsDirectory.appendingPathComponent("AuthKey_ABC123DEFG.pub.pem"), encoding: .utf8)
        #expect(try ES256PublicKey(derivedFromPrivateKeyPEM: p8).publicKeyFingerprint
            == ES256PublicKey(pem: pub).publicKeyFingerprint)
    }

    @Test("text that is not a PEM key is refused with a message")
    func refusesGarbage() {
        #expect(throws: CryptoError.self) { try ES256PrivateKey(pem: "not a key") }
        #expect(throws: CryptoError.self) { try ES256PublicKey(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n") }
        #expect(throws: CryptoError.self) { try ES256PublicKey(derivedFromPrivateKeyPEM: "") }
    }

    @Test("a P-384 key and an encrypted key are refused (the encrypted one without prompting)")
    func refusesWrongCurveAndEncryptedKeys() throws {
        let p384 = try OpenSSLCommand.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"])
        #expect {
            try ES256PrivateKey(pem: p384)
        } throws: { error in
            guard case CryptoError.notP256(let found) = error else { return false }
            return found.contains("secp384r1")
        }
        let directory = try OpenSSLCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("plain.p8")
        try ES256PrivateKey.generate().pkcs8PEM().write(to: plain, atomically: true, encoding: .utf8)
        let encrypted = try OpenSSLCommand.run(["pkcs8", "-topk8", "-in", plain.path, "-passout", "pass:secret"])
        #expect(encrypted.contains("ENCRYPTED PRIVATE KEY"))
        #expect(throws: CryptoError.self) { try ES256PrivateKey(pem: encrypted) }
    }

    @Test("a private key's description shows no key material")
    func descriptionHidesKey() throws {
        let key = try ES256PrivateKey.generate()
        let pem = try key.pkcs8PEM()
        let body = pem.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        #expect(!String(describing: key).contains(body))
        #expect(String(describing: key).contains(key.publicKey.publicKeyFingerprint.prefix(16)))
    }
}
