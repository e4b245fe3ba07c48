/// An APNs provider (client) certificate as APNs reads it: the app's bundle ID from the subject's UID, the
/// environments from Apple's environment extensions, the topics from Apple's topics extension (A-CERT, A-SEND).
public struct ProviderCertificate: Sendable, Hashable, Codable {
    /// Subject attribute UID (userId, RFC 4519): the bundle ID in Apple's push certificates.
    public static let uidOID = "0.9.2342.19200300.100.1.1"
    /// Apple's development (sandbox) environment extension.
    public static let developmentOID = "1.2.840.113635.100.6.3.1"
    /// Apple's production environment extension.
    public static let productionOID = "1.2.840.113635.100.6.3.2"
    /// Apple's topics extension of multi-topic ("universal") certificates: a SEQUENCE of UTF8String topics, each
    /// followed by a SEQUENCE of UTF8String kinds (`app`, `voip`, `complication`) [INFER from A-CERT's OIDs and
    /// the certificates senders load; the layout is not documented by Apple].
    public static let topicsOID = "1.2.840.113635.100.6.3.6"

    /// The subject, one line.
    public var subject: String
    /// The bundle ID (subject UID).
    public var bundleID: String
    /// The environments the certificate may connect to; never empty.
    public var environments: [APNsEnvironment]
    /// The topics of a multi-topic certificate, in extension order; empty when the certificate has no topics
    /// extension (it then covers its bundle ID alone).
    public var topics: [String]
    /// Hex SHA-256 of the certificate.
    public var sha256: String

    public init(subject: String, bundleID: String, environments: [APNsEnvironment], topics: [String], sha256: String) {
        self.subject = subject
        self.bundleID = bundleID
        self.environments = environments
        self.topics = topics
        self.sha256 = sha256
    }

    /// The topics the certificate may push to: its topics extension's, else its bundle ID.
    public var allowedTopics: [String] { topics.isEmpty ? [bundleID] : topics }

    /// APNs defaults `apns-topic` to the bundle ID only for a certificate with one topic (A-SEND).
    public var defaultTopic: String? { allowedTopics.count == 1 ? allowedTopics[0] : nil }

    /// `development`, `production` or `development+production`.
    public var environmentText: String { environments.map(\.rawValue).joined(separator: "+") }

    /// Reads a presented certificate; the error says why it is not a provider certificate (`BadCertificate`).
    public static func read(_ certificate: PeerCertificate) -> Result<ProviderCertificate, ProviderCertificateProblem> {
        guard let uid = certificate.subjectAttributes.first(where: { $0.oid == uidOID })?.value, !uid.isEmpty else {
            return .failure(.noBundleID)
        }
        var environments: [APNsEnvironment] = []
        if certificate.extensions.contains(where: { $0.oid == developmentOID }) { environments.append(.development) }
        if certificate.extensions.contains(where: { $0.oid == productionOID }) { environments.append(.production) }
        guard !environments.isEmpty else { return .failure(.noEnvironment) }
        var topics: [String] = []
        if let topicsExtension = certificate.extensions.first(where: { $0.oid == topicsOID }) {
            guard let parsed = parseTopics(topicsExtension.value) else { return .failure(.malformedTopics) }
            topics = parsed
        }
        return .success(ProviderCertificate(
            subject: certificate.subject, bundleID: uid, environments: environments, topics: topics,
            sha256: certificate.sha256))
    }

    /// The topics of the topics extension's DER; nil when it is not a non-empty SEQUENCE of UTF8String topics
    /// (each optionally followed by a SEQUENCE of kinds).
    public static func parseTopics(_ der: [UInt8]) -> [String]? {
        guard let outer = DERElement.elements(der), outer.count == 1, let children = outer[0].sequenceChildren else {
            return nil
        }
        var topics: [String] = []
        for child in children {
            if let topic = child.utf8String {
                topics.append(topic)
            } else if child.sequenceChildren == nil {
                return nil
            }
        }
        return topics.isEmpty ? nil : topics
    }

    /// The topics extension's DER for `topics`, each with its kind (`voip` for `.voip`, `complication` for
    /// `.complication`, else `app`), as `apns-mock certgen` writes it.
    public static func topicsExtensionDER(_ topics: [String]) -> [UInt8] {
        DERElement.sequence(topics.flatMap { topic -> [DERElement] in
            let kind = topic.hasSuffix(".voip") ? "voip" : topic.hasSuffix(".complication") ? "complication" : "app"
            return [.utf8String(topic), .sequence([.utf8String(kind)])]
        }).encoded
    }
}

/// Why a presented certificate is not a usable provider certificate.
public enum ProviderCertificateProblem: Error, Sendable, Hashable, CustomStringConvertible {
    case noBundleID
    case noEnvironment
    case malformedTopics

    public var description: String {
        switch self {
        case .noBundleID: "its subject has no UID (the bundle ID of an APNs certificate)"
        case .noEnvironment:
            "it has neither Apple's development (\(ProviderCertificate.developmentOID)) nor production "
                + "(\(ProviderCertificate.productionOID)) extension, so it is no APNs push certificate"
        case .malformedTopics: "its topics extension (\(ProviderCertificate.topicsOID)) is not a list of topics"
        }
    }
}
