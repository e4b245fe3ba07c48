import APNSCore

/// A P-256 public key that checks ES256 signatures in both encodings APNs accepts: 64-byte raw `r||s` and DER.
/// Source: RFC 7518 §3.4; [OBS] APNSwift#36 (A-TOKEN).
public struct ES256PublicKey: ES256Verifier, Sendable {
    private let key: EVPKey
    /// Hex SHA-256 of the DER SubjectPublicKeyInfo.
    public let publicKeyFingerprint: String
    /// `-----BEGIN PUBLIC KEY-----` …
    public let pemRepresentation: String

    /// Reads a PEM public key (`-----BEGIN PUBLIC KEY-----`).
    public init(pem: String) throws(CryptoError) {
        try self.init(key: EVPKey.publicKey(pem: pem))
    }

    /// Derives the public key from a PEM private key such as an Apple `.p8`. The private key is released at once
    /// and never stored, logged or echoed.
    public init(derivedFromPrivateKeyPEM pem: String) throws(CryptoError) {
        try self.init(key: EVPKey.privateKey(pem: pem).publicOnly())
    }

    init(key: EVPKey) throws(CryptoError) {
        self.key = key
        let der = try key.subjectPublicKeyInfoDER()
        publicKeyFingerprint = sha256Hex(der)
        pemRepresentation = try EVPKey.publicKeyPEM(subjectPublicKeyInfoDER: der)
    }

    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        if signature.count == ECDSASignatureEncoding.rawLength,
            let der = ECDSASignatureEncoding.der(fromRaw: signature), key.verifyDER(der, message: message)
        {
            return true
        }
        // DER (about 70–72 bytes; in rare cases exactly 64, hence the fall-through above).
        return signature.first == 0x30 && key.verifyDER(signature, message: message)
    }
}
