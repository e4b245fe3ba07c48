/// The client certificate a TLS peer presented, as the transport read it after the handshake. Generic X.509 facts
/// only: what the fields mean for an application (apns-mock: a provider certificate) is the application's business.
package struct PeerCertificate: Sendable, Hashable, Codable {
    /// The subject, one line (RFC 2253 order and escaping), e.g. `UID=com.example.app,CN=…,C=US`.
    package var subject: String
    /// The issuer, one line.
    package var issuer: String
    /// The subject's attributes in certificate order: dotted OID (`0.9.2342.19200300.100.1.1` for UID) and value.
    package var subjectAttributes: [CertificateAttribute]
    /// Every X.509v3 extension: dotted OID and the DER contents of its `extnValue` OCTET STRING.
    package var extensions: [CertificateExtension]
    /// Hex SHA-256 of the DER certificate.
    package var sha256: String
    /// Whether the certificate chains to the server's client-certificate authority and is within its validity.
    package var verification: CertificateVerification

    package init(
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
package struct CertificateAttribute: Sendable, Hashable, Codable {
    package var oid: String
    package var value: String

    package init(oid: String, value: String) {
        self.oid = oid
        self.value = value
    }
}

/// One X.509v3 extension.
package struct CertificateExtension: Sendable, Hashable, Codable {
    package var oid: String
    package var critical: Bool
    /// The DER inside the extension's OCTET STRING.
    package var value: [UInt8]

    package init(oid: String, critical: Bool, value: [UInt8]) {
        self.oid = oid
        self.critical = critical
        self.value = value
    }
}

/// The outcome of checking a peer certificate against the configured authority (the handshake never fails on it).
package enum CertificateVerification: Sendable, Hashable, Codable {
    case trusted
    /// Why not, as OpenSSL words it (`self-signed certificate`, `certificate has expired`, …).
    case untrusted(String)

    package var isTrusted: Bool { self == .trusted }
}
