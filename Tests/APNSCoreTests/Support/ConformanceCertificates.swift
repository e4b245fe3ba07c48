import APNSCore

/// The client certificates the case table's `auth: "certificate:<kind>"` cases present (Conformance/README.md):
/// the unit runner puts them on the request's connection as the transport would read them.
enum ConformanceCertificates {
    static let prefix = "certificate:"

    /// TLS facts with the certificate `auth` names; nil for other `auth` values.
    static func tls(forAuth auth: String?) -> TLSInfo? {
        guard let auth, auth.hasPrefix(prefix) else { return nil }
        let certificate: PeerCertificate
        switch auth.dropFirst(prefix.count) {
        case "development": certificate = CertificateAuthenticatorTests.certificate()
        case "production": certificate = CertificateAuthenticatorTests.certificate(environments: [.production])
        case "multi-topic":
            certificate = CertificateAuthenticatorTests.certificate(
                environments: [.development, .production], topics: ["com.example.app", "com.example.app.voip"])
        case "untrusted": certificate = CertificateAuthenticatorTests.certificate(trusted: false)
        default: return nil
        }
        return TLSInfo(
            alpn: "h2", version: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256", serverName: "localhost",
            clientCertificate: certificate)
    }
}
