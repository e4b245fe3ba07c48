/// Checks ES256 (ECDSA P-256 with SHA-256) signatures made by one key. The pure core calls it; APNSCrypto
/// implements it with OpenSSL (`ES256PublicKey`).
///
/// APNs accepts both signature encodings: 64-byte raw `r||s` (JOSE, RFC 7518 §3.4) and ASN.1 DER (pushy, a2,
/// Apple's own `openssl dgst -sign` recipe). Source: [OBS] APNSwift#36, A-TOKEN.
public protocol ES256Verifier: Sendable {
    /// True when `signature` (raw `r||s` or DER) is a valid signature of `message` by this key.
    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool
    /// A stable identifier of the public key (hex SHA-256 of its SubjectPublicKeyInfo), safe to log and show.
    var publicKeyFingerprint: String { get }
}
