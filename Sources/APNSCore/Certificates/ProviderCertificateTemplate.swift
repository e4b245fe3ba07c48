/// The subject and extensions of an APNs provider certificate in the shape Apple issues them (A-CERT): the bundle
/// ID as subject UID, a common name like `Apple Development IOS Push Services: <bundle>`, the team as OU, one
/// environment extension per environment (value DER NULL) and, for several topics, the topics extension.
/// `apns-mock certgen` signs it with the mock's TEST-ONLY CA; the organisation says so.
public struct ProviderCertificateTemplate: Sendable, Hashable {
    public var bundleID: String
    public var environments: [APNsEnvironment]
    /// Extra topics beyond the bundle ID; non-empty makes a multi-topic certificate listing the bundle ID first.
    public var extraTopics: [String]
    public var teamID: String

    public init(bundleID: String, environments: [APNsEnvironment], extraTopics: [String] = [], teamID: String) {
        self.bundleID = bundleID
        self.environments = environments
        self.extraTopics = extraTopics
        self.teamID = teamID
    }

    /// Every topic the certificate covers.
    public var topics: [String] {
        [bundleID] + extraTopics.filter { $0 != bundleID }
    }

    /// Apple's common-name prefix: development-only certificates are "Apple Development IOS Push Services".
    public var commonName: String {
        environments == [.development]
            ? "Apple Development IOS Push Services: \(bundleID)" : "Apple Push Services: \(bundleID)"
    }

    /// Subject attributes by OpenSSL short name, in Apple's order.
    public var subject: [(name: String, value: String)] {
        [("UID", bundleID), ("CN", commonName), ("OU", teamID), ("O", "apns-mock TEST-ONLY"), ("C", "US")]
    }

    /// Apple's extensions: environment OIDs (DER NULL) and, for several topics, the topics extension.
    public var extensions: [(oid: String, der: [UInt8])] {
        var extensions: [(oid: String, der: [UInt8])] = []
        if environments.contains(.development) { extensions.append((ProviderCertificate.developmentOID, DERElement.null.encoded)) }
        if environments.contains(.production) { extensions.append((ProviderCertificate.productionOID, DERElement.null.encoded)) }
        if topics.count > 1 {
            extensions.append((ProviderCertificate.topicsOID, ProviderCertificate.topicsExtensionDER(topics)))
        }
        return extensions
    }
}
