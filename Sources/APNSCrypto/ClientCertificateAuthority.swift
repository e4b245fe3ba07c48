private import CNative

/// A certificate authority that issues TEST-ONLY client certificates (`apns-mock certgen`): loads a CA certificate
/// and its P-256 key from PEM and signs leaf certificates with the subject and extensions it is given. The APNs
/// shape of those (UID, Apple's OIDs) is `ProviderCertificateTemplate`'s; this type only speaks X.509.
public struct ClientCertificateAuthority: Sendable {
    private let certificatePEM: String
    private let key: EVPKey

    public init(certificatePEM: String, privateKeyPEM: String) throws(CryptoError) {
        key = try EVPKey.privateKey(pem: privateKeyPEM)
        self.certificatePEM = certificatePEM
        let certificate = try Self.readCertificate(certificatePEM)
        defer { X509_free(certificate) }
        guard X509_check_private_key(certificate, key.pointer) == 1 else {
            throw .operationFailed(operation: "X509_check_private_key", detail: "the CA key does not match the CA certificate")
        }
    }

    /// A new leaf with a fresh P-256 key, valid from a minute ago for `days`, signed with SHA-256.
    /// `subject`: short names (`UID`, `CN`, `OU`, `O`, `C`) and values, in order. `extensions`: dotted OID and the
    /// DER of its value, added non-critical after basicConstraints CA:FALSE, keyUsage digitalSignature and
    /// extendedKeyUsage clientAuth.
    public func issue(
        subject: [(name: String, value: String)], extensions: [(oid: String, der: [UInt8])], days: Int,
        pkcs12Password: String, friendlyName: String
    ) throws(CryptoError) -> IssuedClientCertificate {
        let issuer = try Self.readCertificate(certificatePEM)
        defer { X509_free(issuer) }
        let leafKey = try EVPKey.generateP256()
        guard let leaf = X509_new() else { throw .operationFailed(operation: "X509_new", detail: EVPKey.drainErrors()) }
        defer { X509_free(leaf) }
        var serial = [UInt8](repeating: 0, count: 8)
        _ = RAND_bytes(&serial, Int32(serial.count))
        let serialNumber = Int64(serial.reduce(0) { $0 << 8 | UInt64($1) } >> 1)
        let name = X509_NAME_new()
        defer { X509_NAME_free(name) }
        var built = X509_set_version(leaf, 2) == 1
            && ASN1_INTEGER_set_int64(X509_get_serialNumber(leaf), serialNumber) == 1
            && X509_gmtime_adj(X509_getm_notBefore(leaf), -60) != nil
            && X509_gmtime_adj(X509_getm_notAfter(leaf), days * 86_400) != nil
            && X509_set_pubkey(leaf, leafKey.pointer) == 1
        for (field, value) in subject where built {
            built = X509_NAME_add_entry_by_txt(name, field, Int32(MBSTRING_FLAG | 1), value, -1, -1, 0) == 1
        }
        built = built && X509_set_subject_name(leaf, name) == 1
            && X509_set_issuer_name(leaf, X509_get_subject_name(issuer)) == 1
            && cnative_X509_add_ext_conf(leaf, issuer, NID_basic_constraints, "critical,CA:FALSE") == 1
            && cnative_X509_add_ext_conf(leaf, issuer, NID_key_usage, "critical,digitalSignature") == 1
            && cnative_X509_add_ext_conf(leaf, issuer, NID_ext_key_usage, "clientAuth") == 1
            && cnative_X509_add_ext_conf(leaf, issuer, NID_subject_key_identifier, "hash") == 1
            && cnative_X509_add_ext_conf(leaf, issuer, NID_authority_key_identifier, "keyid") == 1
        for (oid, der) in extensions where built {
            built = cnative_X509_add_ext_der(leaf, oid, der, Int32(der.count)) == 1
        }
        guard built, X509_sign(leaf, key.pointer, EVP_sha256()) > 0 else {
            throw .operationFailed(operation: "building the client certificate", detail: EVPKey.drainErrors())
        }
        let certificate = try EVPKey.writeToMemoryBIO(operation: "PEM_write_bio_X509") { bio in PEM_write_bio_X509(bio, leaf) }
        let pkcs12 = try Self.pkcs12(leaf: leaf, key: leafKey, password: pkcs12Password, friendlyName: friendlyName)
        return IssuedClientCertificate(
            certificatePEM: certificate, privateKeyPEM: try leafKey.privateKeyPKCS8PEM(), pkcs12: pkcs12)
    }

    private static func pkcs12(
        leaf: OpaquePointer, key: EVPKey, password: String, friendlyName: String
    ) throws(CryptoError) -> [UInt8] {
        // NIDs 0: OpenSSL 3's defaults (AES-256-CBC with PBKDF2, SHA-256 MAC).
        guard let bundle = PKCS12_create(password, friendlyName, key.pointer, leaf, nil, 0, 0, 0, 0, 0) else {
            throw .operationFailed(operation: "PKCS12_create", detail: EVPKey.drainErrors())
        }
        defer { PKCS12_free(bundle) }
        let length = i2d_PKCS12(bundle, nil)
        guard length > 0 else { throw .operationFailed(operation: "i2d_PKCS12", detail: EVPKey.drainErrors()) }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_PKCS12(bundle, &cursor)
        }
        guard written == length else { throw .operationFailed(operation: "i2d_PKCS12", detail: EVPKey.drainErrors()) }
        return bytes
    }

    private static func readCertificate(_ pem: String) throws(CryptoError) -> OpaquePointer {
        guard let certificate = EVPKey.withMemoryBIO(pem, { bio in PEM_read_bio_X509(bio, nil, nil, nil) }) else {
            throw .operationFailed(operation: "PEM_read_bio_X509", detail: "not a PEM certificate: \(EVPKey.drainErrors())")
        }
        return certificate
    }
}

/// A client certificate, its private key and both in a password-protected PKCS#12 bundle.
public struct IssuedClientCertificate: Sendable {
    public var certificatePEM: String
    /// PKCS#8 PEM (`BEGIN PRIVATE KEY`).
    public var privateKeyPEM: String
    /// DER PKCS#12 (`.p12`).
    public var pkcs12: [UInt8]
}
