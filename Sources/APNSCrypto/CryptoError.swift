/// Why key material could not be read or used. The private key itself never appears in a message.
public enum CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not a PEM private key OpenSSL can read (or it is encrypted: Apple's `.p8` files are not).
    case notAPrivateKey(detail: String)
    /// The text is not a PEM public key (`-----BEGIN PUBLIC KEY-----`).
    case notAPublicKey(detail: String)
    /// The key is not an elliptic-curve key on P-256, which ES256 requires (RFC 7518 §3.4).
    case notP256(found: String)
    /// An OpenSSL operation failed unexpectedly.
    case operationFailed(operation: String, detail: String)
    /// A key file could not be read.
    case unreadableFile(path: String, detail: String)

    public var description: String {
        switch self {
        case .notAPrivateKey(let detail):
            "not a PEM private key (an Apple .p8 starts with -----BEGIN PRIVATE KEY-----): \(detail)"
        case .notAPublicKey(let detail):
            "not a PEM public key (expected -----BEGIN PUBLIC KEY-----): \(detail)"
        case .notP256(let found):
            "the key is \(found); APNs tokens are ES256, which needs an EC key on P-256 (prime256v1)"
        case .operationFailed(let operation, let detail):
            "OpenSSL \(operation) failed: \(detail)"
        case .unreadableFile(let path, let detail):
            "cannot read \(path): \(detail)"
        }
    }
}
