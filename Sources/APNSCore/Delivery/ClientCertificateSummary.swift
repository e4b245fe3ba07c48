
/// The client certificate a push's connection presented, as the delivery record keeps it: who it names and what
/// APNs would read from it (A-CERT). Shown by the admin API, `apns-mock explain` and the inspector.
public struct ClientCertificateSummary: Sendable, Hashable, Codable {
    /// The subject, one line (`UID=com.example.app,CN=Apple Development IOS Push Services: …`).
    public var subject: String
    /// The bundle ID (subject UID); nil when the certificate has none.
    public var bundleID: String?
    /// `development`, `production`: the environment extensions it carries.
    public var environments: [String]
    /// The topics it may push to (its topics extension's, else its bundle ID); empty when it is no APNs certificate.
    public var topics: [String]
    /// Whether it chains to the mock's client-certificate CA.
    public var trusted: Bool
    /// Why it cannot authenticate (untrusted, no UID, no environment extension); nil for a usable certificate.
    public var problem: String?
    /// Hex SHA-256 of the certificate.
    public var sha256: String

    public init(
        subject: String, bundleID: String?, environments: [String], topics: [String], trusted: Bool, problem: String?,
        sha256: String
    ) {
        self.subject = subject
        self.bundleID = bundleID
        self.environments = environments
        self.topics = topics
        self.trusted = trusted
        self.problem = problem
        self.sha256 = sha256
    }

    /// The summary of a presented certificate.
    public init(_ certificate: PeerCertificate) {
        let uid = certificate.subjectAttributes.first { $0.oid == ProviderCertificate.uidOID }?.value
        var problem: String?
        if case .untrusted(let why) = certificate.verification { problem = "not trusted: \(why)" }
        switch ProviderCertificate.read(certificate) {
        case .success(let provider):
            self.init(
                subject: certificate.subject, bundleID: provider.bundleID,
                environments: provider.environments.map(\.rawValue), topics: provider.allowedTopics,
                trusted: certificate.verification.isTrusted, problem: problem, sha256: certificate.sha256)
        case .failure(let reason):
            self.init(
                subject: certificate.subject, bundleID: uid, environments: [], topics: [],
                trusted: certificate.verification.isTrusted, problem: problem ?? "\(reason)", sha256: certificate.sha256)
        }
    }
}
