import APNSCore

/// The client certificates the case table's `auth: "certificate:<kind>"` cases present (Conformance/README.md):
/// the unit runner puts them on the request's connection as the transport would read them.
package enum ConformanceCertificates {
    package static let prefix = "certificate:"

    /// TLS facts with the certificate `auth` names; nil for other `auth` values.
    package static func tls(forAuth auth: String?) -> TLSInfo? {
        guard let auth, auth.hasPrefix(prefix) else { return nil }
        let certificate: PeerCertificate
        switch auth.dropFirst(prefix.count) {
        case "development": certificate = Self.certificate()
        case "production": certificate = Self.certificate(environments: [.production])
        case "multi-topic":
            certificate = Self.certificate(
                environments: [.development, .production], topics: ["com.example.app", "com.example.app.voip"])
        case "untrusted": certificate = Self.certificate(trusted: false)
        default: return nil
        }
        return TLSInfo(
            alpn: "h2", version: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256", serverName: "localhost",
            clientCertificate: certificate)
    }

    /// A provider certificate as the transport would read it: the bundle in the UID, Apple's environment
    /// extensions, the topics extension for several topics.
    package static func certificate(
        bundle: String? = "com.example.app", environments: [APNsEnvironment] = [.development], topics: [String] = [],
        trusted: Bool = true
    ) -> PeerCertificate {
        var extensions: [CertificateExtension] = []
        if environments.contains(.development) {
            extensions.append(.init(oid: ProviderCertificate.developmentOID, critical: false, value: [0x05, 0x00]))
        }
        if environments.contains(.production) {
            extensions.append(.init(oid: ProviderCertificate.productionOID, critical: false, value: [0x05, 0x00]))
        }
        if !topics.isEmpty {
            extensions.append(.init(
                oid: ProviderCertificate.topicsOID, critical: false, value: ProviderCertificate.topicsExtensionDER(topics)))
        }
        return PeerCertificate(
            subject: "UID=\(bundle ?? "")", issuer: "CN=apns-mock TEST-ONLY CA",
            subjectAttributes: bundle.map { [CertificateAttribute(oid: ProviderCertificate.uidOID, value: $0)] } ?? [],
            extensions: extensions, sha256: "00", verification: trusted ? .trusted : .untrusted("self-signed certificate"))
    }
}
