/// The client certificate a TLS peer presented, as the transport read it after the handshake. Generic X.509 facts
/// only: what the fields mean for an application (apns-mock: a provider certificate) is the application's business.
public struct PeerCertificate: Sendable, Hashable, Codable {
    /// The subject, one line (RFC 2253 order and escaping), e.g. `UID=com.example.app,CN=…,C=US`.
    public var subject: String
    /// The issuer, one line.
    public var issuer: String
    /// The subject's attributes in certificate order: dotted OID (`0.9.2342.19200300.100.1.1` for UID) and value.
    public var subjectAttributes: [CertificateAttribute]
    /// Every X.509v3 extension: dotted OID and the DER contents of its `extnValue` OCTET STRING.
    public var extensions: [CertificateExtension]
    /// Hex SHA-256 of the DER certificate.
    public var sha256: String
    /// Whether the certificate chains to the server's client-certificate authority and is within its validity.
    public var verification: CertificateVerification

    public init(
        subject: String, issuer: String, subjectAttributes: [CertificateAttribute], extensions: [CertificateExtension],
        sha256: String, verification: CertificateVerification
    ) {
        self.subject = subject
        self.issuer = issuer
        self.subjectAttributes = subjectAttributes
        self.extensions = extensions
        self.sha256 = sha256
        self.verification = verification
    }
}

/// One attribute of a distinguished name.
public struct CertificateAttribute: Sendable, Hashable, Codable {
    public var oid: String
    public var value: String

    public init(oid: String, value: String) {
        self.oid = oid
        self.value = value
    }
}

/// One X.509v3 extension.
public struct CertificateExtension: Sendable, Hashable, Codable {
    public var oid: String
    public var critical: Bool
    /// The DER inside the extension's OCTET STRING.
    public var value: [UInt8]

    public init(oid: String, critical: Bool, value: [UInt8]) {
        self.oid = oid
        self.critical = critical
        self.value = value
    }
}

/// The outcome of checking a peer certificate against the configured authority (the handshake never fails on it).
public enum CertificateVerification: Sendable, Hashable, Codable {
    case trusted
    /// Why not, as OpenSSL words it (`self-signed certificate`, `certificate has expired`, …).
    case untrusted(String)

    public var isTrusted: Bool { self == .trusted }
}
