import APNSCrypto
import Foundation
import Testing

/// EC keys are read by OpenSSL's EC decoder alone and their public halves written without OpenSSL's encoder; the
/// results must be what `openssl pkey` makes of the same file, in every form a key comes in, and the keys the fast
/// path leaves to the general reader must still load or fail as before.
@Suite("ES256 keys in every PEM form: public key and fingerprint as openssl makes them")
struct ES256KeyFormTests {
    /// `openssl pkey -pubout` (PEM) and the hex SHA-256 of `-outform DER` for the key in `pem`.
    static func opensslPublicKey(of pem: String, publicInput: Bool = false) throws -> (pem: String, fingerprint: String) {
        let input = Data(pem.utf8)
        let flags = publicInput ? ["-pubin"] : []
        let publicPEM = try OpenSSLCommand.run(["pkey"] + flags + ["-pubout"], input: input)
        let der = try OpenSSLCommand.runBinary(["pkey"] + flags + ["-pubout", "-outform", "DER"], input: input)
        let digest = try OpenSSLCommand.run(["dgst", "-sha256", "-r"], input: der)
        return (publicPEM, String(digest.prefix(64)))
    }

    static func forms() throws -> [(name: String, pem: String)] {
        let pkcs8 = try ES256PrivateKey.generate().pkcs8PEM()
        let sec1 = try OpenSSLCommand.run(["ec"], input: Data(pkcs8.utf8))
        let compressed = try OpenSSLCommand.run(["ec", "-conv_form", "compressed"], input: Data(pkcs8.utf8))
        let withParameters = try OpenSSLCommand.run(["ecparam", "-name", "prime256v1", "-genkey"])
        let explicitCurve = try OpenSSLCommand.run(["ec", "-param_enc", "explicit"], input: Data(pkcs8.utf8))
        return [("PKCS#8", pkcs8), ("SEC1", sec1), ("SEC1, compressed point", compressed),
                ("EC PARAMETERS then SEC1", withParameters), ("explicit curve parameters", explicitCurve)]
    }

    @Test("a private key's derived public key, PEM and fingerprint equal openssl pkey's")
    func privateKeyForms() throws {
        for (name, pem) in try Self.forms() {
            let expected = try Self.opensslPublicKey(of: pem)
            let derived = try ES256PublicKey(derivedFromPrivateKeyPEM: pem)
            #expect(derived.pemRepresentation == expected.pem, "\(name)")
            #expect(derived.publicKeyFingerprint == expected.fingerprint, "\(name)")
            let key = try ES256PrivateKey(pem: pem)
            #expect(key.publicKey.pemRepresentation == expected.pem, "\(name)")
            #expect(key.publicKey.isValidSignature(try key.rawSignature(for: [1, 2, 3]), for: [1, 2, 3]), "\(name)")
        }
    }

    @Test("a public key read from PEM keeps openssl's PEM and fingerprint")
    func publicKeyForms() throws {
        for (name, pem) in try Self.forms() {
            for form in [[], ["-conv_form", "compressed"]] {
                let publicPEM = try OpenSSLCommand.run(["ec", "-pubout"] + form, input: Data(pem.utf8))
                let expected = try Self.opensslPublicKey(of: publicPEM, publicInput: true)
                let key = try ES256PublicKey(pem: publicPEM)
                #expect(key.pemRepresentation == expected.pem, "\(name) \(form)")
                #expect(key.publicKeyFingerprint == expected.fingerprint, "\(name) \(form)")
            }
        }
    }

    @Test("a public key where a private one belongs, and the reverse, are refused as before")
    func swappedKeysAreRefused() throws {
        let key = try ES256PrivateKey.generate()
        let privatePEM = try key.pkcs8PEM()
        #expect {
            try ES256PublicKey(derivedFromPrivateKeyPEM: key.publicKey.pemRepresentation)
        } throws: { error in
            guard case CryptoError.notAPrivateKey = error else { return false }
            return "\(error)".hasPrefix("not a PEM private key")
        }
        #expect {
            try ES256PublicKey(pem: privatePEM)
        } throws: { error in
            guard case CryptoError.notAPublicKey = error else { return false }
            return "\(error)".hasPrefix("not a PEM public key")
        }
        let rsa = try OpenSSLCommand.run(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"])
        #expect {
            try ES256PrivateKey(pem: rsa)
        } throws: { error in
            guard case CryptoError.notP256(let found) = error else { return false }
            return found.hasPrefix("not an elliptic-curve key")
        }
    }
}
