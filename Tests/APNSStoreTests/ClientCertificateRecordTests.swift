@testable import APNSCore
import APNSJSON
import Testing

@testable import APNSStore

/// The delivery record keeps the client certificate of a certificate-authenticated push (subject, bundle ID,
/// environments, topics, trust): written, read back and searched through the field table.
@Suite struct ClientCertificateRecordTests {
    static let summary = ClientCertificateSummary(
        subject: "UID=com.example.app,CN=Apple Push Services: com.example.app", bundleID: "com.example.app",
        environments: ["development", "production"], topics: ["com.example.app", "com.example.app.voip"],
        trusted: false, problem: "not trusted: self-signed certificate", sha256: "ab")

    static let record = DeliveryRecord(
        receivedAt: .zero, connectionID: 1, clientAddress: "a", method: "POST", path: "/3/device/ab",
        deviceToken: "ab", headers: [], payload: [], status: 403, reason: "BadCertificate", apnsID: "x",
        pushType: "alert", topic: "com.example.app", latencyMicroseconds: 0, clientCertificate: summary)

    @Test func writtenAndReadBack() throws {
        let text = String(decoding: Self.record.jsonBytes, as: UTF8.self)
        #expect(text.contains(
            #""clientCertificate":{"subject":"UID=com.example.app,CN=Apple Push Services: com.example.app","#
                + #""bundleId":"com.example.app","environments":["development","production"],"#
                + #""topics":["com.example.app","com.example.app.voip"],"trusted":false,"#
                + #""problem":"not trusted: self-signed certificate","sha256":"ab"}"#))
        let back = try DeliveryRecord(jsonBytes: Self.record.jsonBytes)
        #expect(back.clientCertificate == Self.summary)
        #expect(back == Self.record)
    }

    @Test func searchFindsTheSubjectAndBundle() {
        #expect(Self.record.searchText.contains("apple push services"))
    }

    @Test func summaryOfAPeerCertificate() {
        let peer = PeerCertificate(
            subject: "UID=com.example.app", issuer: "CN=CA",
            subjectAttributes: [CertificateAttribute(oid: ProviderCertificate.uidOID, value: "com.example.app")],
            extensions: [CertificateExtension(oid: ProviderCertificate.productionOID, critical: false, value: [5, 0])],
            sha256: "cd", verification: .trusted)
        let summary = ClientCertificateSummary(peer)
        #expect(summary.bundleID == "com.example.app" && summary.environments == ["production"])
        #expect(summary.topics == ["com.example.app"] && summary.trusted && summary.problem == nil)
        var noEnvironment = peer
        noEnvironment.extensions = []
        #expect(ClientCertificateSummary(noEnvironment).problem?.contains("no APNs push certificate") == true)
    }
}
