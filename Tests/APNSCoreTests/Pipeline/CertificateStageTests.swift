@testable import APNSCore
import Testing

/// On a certificate connection the pipeline answers the certificate refusals on the stream and then ends the
/// connection with GOAWAY carrying the reason (A-RESP; apns2#93, pushy#312); an accepted certificate push keeps the
/// connection and needs no stream-limit raise.
@Suite struct CertificateStageTests {
    typealias F = PipelineFixture

    static func certificatePush(environment: APNsEnvironment, trusted: Bool = true, topic: String? = nil) -> HTTPRequest {
        var request = F.push(topic: topic ?? "")
        if topic == nil { request.headers.removeAll { $0.name == "apns-topic" } }
        request.connection = ConnectionInfo(
            id: 7, remoteAddress: "in-memory", localPort: 0,
            tls: TLSInfo(
                alpn: "h2", version: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256", serverName: "localhost",
                clientCertificate: PeerCertificate(
                    subject: "UID=com.example.app", issuer: "CN=CA",
                    subjectAttributes: [CertificateAttribute(oid: ProviderCertificate.uidOID, value: "com.example.app")],
                    extensions: [CertificateExtension(oid: ProviderCertificate.developmentOID, critical: false, value: [5, 0])],
                    sha256: "00", verification: trusted ? .trusted : .untrusted("self-signed certificate"))),
            environment: environment)
        return request
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var request: HTTPRequest
        var status: Int
        var goAwayReason: String?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "accepted: no GOAWAY", request: certificatePush(environment: .development), status: 200),
        Row(name: "wrong environment: 403 then GOAWAY", request: certificatePush(environment: .production),
            status: 403, goAwayReason: "BadCertificateEnvironment"),
        Row(name: "untrusted: 403 then GOAWAY", request: certificatePush(environment: .development, trusted: false),
            status: 403, goAwayReason: "BadCertificate"),
        Row(name: "topic outside the certificate: the connection stays",
            request: certificatePush(environment: .development, topic: "com.other.app"), status: 400),
    ]

    @Test(arguments: rows) func refusalsEndTheConnection(_ row: Row) {
        var state = PushConnectionState(requiresTokenAuthentication: false)
        let decision = F.pipeline().decide(
            row.request, connection: &state, authenticator: SequenceAuthenticator(), scripts: ListedScripts([]), now: F.now)
        #expect(decision.response.status == row.status)
        let expected: [ConnectionAction] = row.goAwayReason.map {
            [.goAway(errorCode: 0, debugData: Array(#"{"reason":"\#($0)"}"#.utf8))]
        } ?? []
        #expect(decision.actions == expected)
    }

    /// The refusal is read from the rules' rejection, or from a mock answer that is not strict mode's (its `reason`
    /// string as APNs' reason); strict answers, unanswered pushes and answers a fault replaced keep the connection.
    @Test func refusalActionFollowsTheAnswersCase() {
        let goAway = ConnectionAction.goAway(errorCode: 0, debugData: Array(#"{"reason":"BadCertificate"}"#.utf8))
        let rejected = Verdict.rejected(APNsRejection(.badCertificate), PushFindings())
        let scripted = Verdict.mockAnswer(
            MockAnswer(origin: .scripted, status: 403, wireReason: "BadCertificate"), PushFindings())
        let strict = Verdict.mockAnswer(
            MockAnswer(origin: .strictMode(code: "x"), status: 403, wireReason: "BadCertificate"), PushFindings())
        let unknownReason = Verdict.mockAnswer(
            MockAnswer(origin: .scripted, status: 403, wireReason: "NotAReason"), PushFindings())
        #expect(PushPipeline.certificateRefusalAction(for: rejected, faultReplacesAnswer: false) == goAway)
        #expect(PushPipeline.certificateRefusalAction(for: rejected, faultReplacesAnswer: true) == nil)
        #expect(PushPipeline.certificateRefusalAction(for: scripted, faultReplacesAnswer: false) == goAway)
        #expect(PushPipeline.certificateRefusalAction(for: strict, faultReplacesAnswer: false) == nil)
        #expect(PushPipeline.certificateRefusalAction(for: unknownReason, faultReplacesAnswer: false) == nil)
        #expect(PushPipeline.certificateRefusalAction(
            for: .rejected(APNsRejection(.badDeviceToken), PushFindings()), faultReplacesAnswer: false) == nil)
        #expect(PushPipeline.certificateRefusalAction(for: .unanswered(PushFindings()), faultReplacesAnswer: false) == nil)
        #expect(PushPipeline.certificateRefusalAction(for: .accepted(PushFindings()), faultReplacesAnswer: false) == nil)
    }
}
