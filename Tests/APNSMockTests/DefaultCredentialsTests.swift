@testable import APNSMock
import Foundation
import Testing

/// The TEST-ONLY credentials are compiled into the binary and written out for OpenSSL and `check`'s senders, so a
/// copied binary needs no `certs/` beside it.
@Suite struct DefaultCredentialsTests {
    private let certs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("certs")

    @Test func writesTheFilesOfCertsByteForByteWithPrivateKeysForTheOwnerOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("creds-\(UUID().uuidString)/a/b")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent().deletingLastPathComponent()) }
        try DefaultCredentials.materialize(into: directory.path)
        for file in DefaultCredentials.embedded {
            let written = try Data(contentsOf: directory.appendingPathComponent(file.name))
            #expect(written == (try Data(contentsOf: certs.appendingPathComponent(file.name))), "\(file.name)")
            let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file.name).path)[.posixPermissions] as? Int
            #expect(mode == (file.isPrivateKey ? 0o600 : 0o644), "\(file.name)")
        }
        // A changed file is put back; the others are left as they are.
        try Data("stale".utf8).write(to: directory.appendingPathComponent("dev-ca.pem"))
        try DefaultCredentials.materialize(into: directory.path)
        #expect(try Data(contentsOf: directory.appendingPathComponent("dev-ca.pem"))
            == Data(contentsOf: certs.appendingPathComponent("dev-ca.pem")))
    }

    @Test(arguments: [
        (["XDG_CACHE_HOME": "/c", "HOME": "/h", "TMPDIR": "/t"], ["/c/apns-mock/test-only-certs", "/h/.cache/apns-mock/test-only-certs", "/t/apns-mock-UID/test-only-certs"]),
        (["HOME": "/h"], ["/h/.cache/apns-mock/test-only-certs", "/tmp/apns-mock-UID/test-only-certs"]),
        (["XDG_CACHE_HOME": "relative", "HOME": ""], ["/tmp/apns-mock-UID/test-only-certs"]),
    ])
    func perUserPlacesMostStableFirst(environment: [String: String], expected: [String]) {
        let uid = String(getuid())
        #expect(DefaultCredentials.materializationDirectories(environment: environment)
            == expected.map { $0.replacingOccurrences(of: "UID", with: uid) })
    }
}
