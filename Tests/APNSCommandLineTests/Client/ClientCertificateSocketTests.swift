import APNSCore
import APNSCrypto
import HTTP2
import Foundation
import HTTPContract
import Testing
@testable import APNSCommandLine

/// Certificate-based authentication over real loopback TLS: a certificate `ClientCertificateAuthority` issues in
/// Apple's shape (`ProviderCertificateTemplate`) reaches the application as `TLSInfo.clientCertificate`, with the
/// facts APNs reads (A-CERT) and whether it chains to the server's client-certificate CA.
@Suite(.serialized) struct ClientCertificateSocketTests {
    static let certs = HTTP2ClientSocketTests.certs

    /// Answers 200 and keeps each connection's client certificate.
    final class RecordingApplication: HTTP2Application, @unchecked Sendable {
        let seen = Locked<[PeerCertificate?]>([])

        func connectionOpened(_ connection: ConnectionInfo) -> any HTTP2ConnectionHandler {
            seen.withLock { $0.append(connection.tls?.clientCertificate) }
            return Handler()
        }

        final class Handler: HTTP2ConnectionHandler {
            var initialMaxConcurrentStreams: UInt32 { 100 }
            func handle(_ request: HTTPRequest, sink: ResponseSink) {
                sink.send(HTTPResponse(status: 200, headers: [HeaderField("apns-id", "00000000-0000-0000-0000-000000000001")]))
            }

            func connectionClosed() {}
        }
    }

    /// Writes a certificate issued by the dev CA for `template` and returns (certificate, key) paths.
    /// Issues a certificate for `template` and runs `body` with its certificate and key files, removed after.
    static func withIssued<Result>(
        _ template: ProviderCertificateTemplate, by caName: String = "dev-ca", _ body: ((String, String)) throws -> Result
    ) throws -> Result {
        let authority = try ClientCertificateAuthority(
            certificatePEM: String(contentsOfFile: certs + "/\(caName).pem", encoding: .utf8),
            privateKeyPEM: String(contentsOfFile: certs + "/\(caName).key", encoding: .utf8))
        let issued = try authority.issue(
            subject: template.subject, extensions: template.extensions, days: 1, pkcs12Password: "test",
            friendlyName: template.commonName)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-mock-cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        try issued.certificatePEM.write(toFile: certificate, atomically: true, encoding: .utf8)
        try issued.privateKeyPEM.write(toFile: key, atomically: true, encoding: .utf8)
        #expect(!issued.pkcs12.isEmpty)
        return try body((certificate, key))
    }

    /// Sends one push presenting `client` (nil: no certificate) and returns what the application saw.
    static func presented(_ client: (String, String)?, trusting authority: String?) throws -> PeerCertificate? {
        let application = RecordingApplication()
        let server = try HTTP2Server(
            listeners: [ListenerConfiguration(host: "127.0.0.1", port: 0, useTLS: true, label: "development")],
            tls: TLSFiles(
                certificateChainPath: certs + "/server.pem", privateKeyPath: certs + "/server.key",
                clientCertificateAuthorityPath: authority),
            application: application, threads: 1)
        let port = try server.start()[0]
        defer { server.shutdown(gracePeriod: 1) }
        let sender = PushSender(configuration: PushSenderConfiguration(
            endpoint: HTTP2Endpoint(host: "localhost", port: port, useTLS: true),
            tls: TLSClientConfiguration(
                caFile: certs + "/dev-ca.pem", clientCertificateFile: client?.0, clientKeyFile: client?.1),
            retries: 0, requestTimeout: 10))
        let summary = sender.send(count: 1, job: HTTP2ClientSocketTests.pushes(1)) { _ in }
        #expect(summary.exitStatus == 0)
        let seen = application.seen.withLock { $0 }
        #expect(seen.count == 1)
        return seen.first ?? nil
    }

    @Test func anIssuedCertificateArrivesTrustedWithApplesFacts() throws {
        let template = ProviderCertificateTemplate(
            bundleID: "com.example.app", environments: [.development, .production],
            extraTopics: ["com.example.app.voip"], teamID: "TEAM123456")
        let peer = try #require(try Self.withIssued(template) { try Self.presented($0, trusting: Self.certs + "/dev-ca.pem") })
        #expect(peer.verification == .trusted)
        #expect(peer.subject.contains("UID=com.example.app"))
        #expect(peer.sha256.count == 64)
        let provider = try ProviderCertificate.read(peer).get()
        #expect(provider.bundleID == "com.example.app")
        #expect(provider.environments == [.development, .production])
        #expect(provider.topics == ["com.example.app", "com.example.app.voip"])
    }

    @Test func withoutTheCAItIsUntrusted() throws {
        let template = ProviderCertificateTemplate(bundleID: "com.example.app", environments: [.development], teamID: "T")
        let peer = try #require(try Self.withIssued(template) { try Self.presented($0, trusting: nil) })
        guard case .untrusted(let why) = peer.verification else {
            Issue.record("expected untrusted, got \(peer.verification)")
            return
        }
        #expect(!why.isEmpty)
    }

    @Test func noCertificateIsNil() throws {
        #expect(try Self.presented(nil, trusting: Self.certs + "/dev-ca.pem") == nil)
    }
}
