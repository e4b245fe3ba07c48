private import CNative

/// Owns one OpenSSL `EVP_PKEY` holding a P-256 key, and is the one place (with `ECDSASignatureEncoding`) where
/// Swift touches OpenSSL pointers. OpenSSL 3 allows concurrent read-only use of an `EVP_PKEY` (openssl-threads(7));
/// every operation here makes its own short-lived contexts, so instances are shareable.
///
/// Every failing call drains OpenSSL's thread-local error queue, so that errors never leak into the TLS code
/// sharing the thread.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer
    let hasPrivateKey: Bool

    private init(taking pointer: OpaquePointer, hasPrivateKey: Bool) throws(CryptoError) {
        self.pointer = pointer
        self.hasPrivateKey = hasPrivateKey
        try requireP256()
    }

    deinit { EVP_PKEY_free(pointer) }

    // MARK: Loading and generating

    /// Reads a PEM private key (PKCS#8 `BEGIN PRIVATE KEY`, as in Apple's `.p8`, or SEC1 `BEGIN EC PRIVATE KEY`).
    /// Encrypted keys are refused rather than prompting for a passphrase.
    /// An unencrypted EC key is read by OpenSSL's EC decoder alone; anything else (and the errors) by the general
    /// reader, which tries every decoder.
    static func privateKey(pem: String) throws(CryptoError) -> EVPKey {
        if let loaded = withMemoryBIO(pem, { bio in cnative_read_ec_private_key_pem(bio) }) {
            return try EVPKey(taking: loaded, hasPrivateKey: true)
        }
        let loaded = withMemoryBIO(pem) { bio in PEM_read_bio_PrivateKey(bio, nil, refusePassphrase, nil) }
        guard let loaded else { throw .notAPrivateKey(detail: drainErrors()) }
        return try EVPKey(taking: loaded, hasPrivateKey: true)
    }

    /// Reads a PEM SubjectPublicKeyInfo (`BEGIN PUBLIC KEY`).
    static func publicKey(pem: String) throws(CryptoError) -> EVPKey {
        if let loaded = withMemoryBIO(pem, { bio in cnative_read_ec_public_key_pem(bio) }) {
            return try EVPKey(taking: loaded, hasPrivateKey: false)
        }
        let loaded = withMemoryBIO(pem) { bio in PEM_read_bio_PUBKEY(bio, nil, refusePassphrase, nil) }
        guard let loaded else { throw .notAPublicKey(detail: drainErrors()) }
        return try EVPKey(taking: loaded, hasPrivateKey: false)
    }

    /// A fresh P-256 key pair.
    static func generateP256() throws(CryptoError) -> EVPKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw .operationFailed(operation: "EVP_PKEY_CTX_new_from_name", detail: drainErrors())
        }
        defer { EVP_PKEY_CTX_free(context) }
        var generated: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &generated) == 1, let generated
        else { throw .operationFailed(operation: "P-256 key generation", detail: drainErrors()) }
        return try EVPKey(taking: generated, hasPrivateKey: true)
    }

    /// The public half only, as its own key: made from the public point when the key has a named-curve one
    /// (without an encode and decode), else read back from its PEM.
    func publicOnly() throws(CryptoError) -> EVPKey {
        if let point = uncompressedPublicPoint(), let key = point.withUnsafeBufferPointer({ cnative_ec_p256_public_key($0.baseAddress) }) {
            return try EVPKey(taking: key, hasPrivateKey: false)
        }
        return try EVPKey.publicKey(pem: publicKeyPEM())
    }

    // MARK: Exporting

    /// DER SubjectPublicKeyInfo. For a named-curve P-256 key with an uncompressed point this is a fixed prefix and
    /// the point, as `i2d_PUBKEY` writes it (without OpenSSL's encoder search).
    func subjectPublicKeyInfoDER() throws(CryptoError) -> [UInt8] {
        if let point = uncompressedPublicPoint() { return EVPKey.p256SubjectPublicKeyInfoPrefix + point }
        let length = i2d_PUBKEY(pointer, nil)
        guard length > 0 else { throw .operationFailed(operation: "i2d_PUBKEY", detail: EVPKey.drainErrors()) }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(pointer, &cursor)
        }
        guard written == length else { throw .operationFailed(operation: "i2d_PUBKEY", detail: EVPKey.drainErrors()) }
        return bytes
    }

    func publicKeyPEM() throws(CryptoError) -> String {
        try EVPKey.publicKeyPEM(subjectPublicKeyInfoDER: subjectPublicKeyInfoDER())
    }

    /// `-----BEGIN PUBLIC KEY-----` around `der`, as `PEM_write_bio_PUBKEY` writes it.
    static func publicKeyPEM(subjectPublicKeyInfoDER der: [UInt8]) throws(CryptoError) -> String {
        try writeToMemoryBIO(operation: "PEM_write_bio") { bio in
            // PEM_write_bio answers the length written, or 0.
            PEM_write_bio(bio, "PUBLIC KEY", "", der, der.count) > 0 ? 1 : 0
        }
    }

    /// SubjectPublicKeyInfo DER up to the point: SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING }.
    private static let p256SubjectPublicKeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48,
        0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// The 65-byte uncompressed public point, when the key is on a curve encoded by name and keeps its point so.
    private func uncompressedPublicPoint() -> [UInt8]? {
        var point = [UInt8](repeating: 0, count: 65)
        let got = point.withUnsafeMutableBufferPointer { cnative_ec_p256_public_point(pointer, $0.baseAddress) }
        return got == 1 ? point : nil
    }

    /// PKCS#8 PEM (`BEGIN PRIVATE KEY`), the format of Apple's `.p8`. Only for writing generated test keys.
    func privateKeyPKCS8PEM() throws(CryptoError) -> String {
        try EVPKey.writeToMemoryBIO(operation: "PEM_write_bio_PrivateKey") { bio in
            PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil)
        }
    }

    // MARK: Signing and verifying

    /// ECDSA with SHA-256 over `message`; the signature is DER, as OpenSSL makes it.
    func signDER(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else {
            throw .operationFailed(operation: "EVP_MD_CTX_new", detail: EVPKey.drainErrors())
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1 else {
            throw .operationFailed(operation: "EVP_DigestSignInit", detail: EVPKey.drainErrors())
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw .operationFailed(operation: "EVP_DigestSign", detail: EVPKey.drainErrors())
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw .operationFailed(operation: "EVP_DigestSign", detail: EVPKey.drainErrors())
        }
        return Array(signature.prefix(length))
    }

    /// True when `derSignature` is a valid ECDSA SHA-256 signature of `message`.
    func verifyDER(_ derSignature: [UInt8], message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else {
            _ = EVPKey.drainErrors()
            return false
        }
        defer { EVP_MD_CTX_free(context) }
        let valid = EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1
            && EVP_DigestVerify(context, derSignature, derSignature.count, message, message.count) == 1
        if !valid { _ = EVPKey.drainErrors() }
        return valid
    }

    // MARK: Helpers

    private func requireP256() throws(CryptoError) {
        guard EVP_PKEY_get_base_id(pointer) == EVP_PKEY_EC else {
            throw .notP256(found: "not an elliptic-curve key (type \(EVP_PKEY_get_base_id(pointer)))")
        }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else {
            throw .notP256(found: "an EC key with an unnamed curve (\(EVPKey.drainErrors()))")
        }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard group == "prime256v1" || group == "P-256" else { throw .notP256(found: "an EC key on \(group)") }
    }

    static func withMemoryBIO<T>(_ text: String, _ body: (OpaquePointer) -> T?) -> T? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer -> T? in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    static func writeToMemoryBIO(
        operation: String, _ write: (OpaquePointer) -> Int32
    ) throws(CryptoError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw .operationFailed(operation: "BIO_new", detail: drainErrors())
        }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw .operationFailed(operation: operation, detail: drainErrors()) }
        let pending = Int(BIO_ctrl_pending(bio))
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = BIO_read(bio, &bytes, Int32(pending))
        guard read == pending else { throw .operationFailed(operation: "BIO_read", detail: drainErrors()) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Empties OpenSSL's error queue for this thread and returns its messages.
    static func drainErrors() -> String {
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? "no detail from OpenSSL" : messages.joined(separator: "; ")
    }
}

/// A passphrase callback that refuses, so an encrypted key fails instead of prompting on the terminal.
private let refusePassphrase: @convention(c) (
    UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?
) -> Int32 = { _, _, _, _ in -1 }

/// SHA-256 of `bytes`, hex.
func sha256Hex(_ bytes: [UInt8]) -> String {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    _ = SHA256(bytes, bytes.count, &digest)
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(digest.count * 2)
    for byte in digest {
        hex.append(digits[Int(byte >> 4)])
        hex.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: hex, as: UTF8.self)
}
