import APNSCore

/// A P-256 private key for signing provider tokens: the keys tests generate, the `keygen` subcommand writes, and
/// the key a sender loads from a `.p8`. Its description never shows key material.
public struct ES256PrivateKey: Sendable, CustomStringConvertible {
    private let key: EVPKey
    public let publicKey: ES256PublicKey

    /// Reads a PEM private key: Apple's `.p8` (PKCS#8) or SEC1 `BEGIN EC PRIVATE KEY`.
    public init(pem: String) throws(CryptoError) {
        try self.init(key: EVPKey.privateKey(pem: pem))
    }

    /// A fresh random P-256 key.
    public static func generate() throws(CryptoError) -> ES256PrivateKey {
        try ES256PrivateKey(key: EVPKey.generateP256())
    }

    private init(key: EVPKey) throws(CryptoError) {
        self.key = key
        publicKey = try ES256PublicKey(key: key.publicOnly())
    }

    /// The key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), the format of an Apple `.p8` file.
    public func pkcs8PEM() throws(CryptoError) -> String {
        try key.privateKeyPKCS8PEM()
    }

    /// The JOSE ES256 signature of `message`: 64 bytes `r||s` (RFC 7518 §3.4).
    public func rawSignature(for message: [UInt8]) throws(CryptoError) -> [UInt8] {
        let der = try key.signDER(message)
        guard let raw = ECDSASignatureEncoding.raw(fromDER: der) else {
            throw .operationFailed(operation: "ECDSA signature conversion", detail: "OpenSSL made an unreadable DER signature")
        }
        return raw
    }

    /// The DER signature of `message`, as `openssl dgst -sha256 -sign`, pushy and a2 make it.
    public func derSignature(for message: [UInt8]) throws(CryptoError) -> [UInt8] {
        try key.signDER(message)
    }

    public var description: String { "ES256PrivateKey(public key \(publicKey.publicKeyFingerprint.prefix(16)))" }
}
