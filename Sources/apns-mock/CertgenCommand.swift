import APNSCore
import APNSCrypto
import APNSMock
import ArgumentParser
import Foundation

/// `apns-mock certgen`: issues a TEST-ONLY APNs client certificate from the mock's CA, in the shape Apple issues
/// them (`ProviderCertificateTemplate`), for senders that authenticate with a certificate instead of a token.
struct CertgenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certgen",
        abstract: "Issue a TEST-ONLY APNs client certificate (<bundle>.cert.pem, .key.pem, .p12) from the mock's CA.",
        discussion: """
            The certificate carries the bundle ID as subject UID, Apple's environment extension(s) and, with \
            --topics, Apple's topics extension, so the mock authenticates it as APNs would. It is signed by the \
            mock's TEST-ONLY CA (certs/dev-ca.pem), which the mock trusts by default; Apple's servers do not. \
            Files are never overwritten; the key and the .p12 are written with mode 0600.
            """)

    @Option(help: "The app's bundle ID (the certificate's subject UID and default topic).")
    var bundle: String

    @Option(help: "development, production or both (like Apple's \"Sandbox & Production\" certificates).")
    var environment: CertificateEnvironment = .development

    @Option(
        parsing: .upToNextOption,
        help: "Further topics for a multi-topic certificate (e.g. <bundle>.voip <bundle>.complication); comma- or space-separated.")
    var topics: [String] = []

    @Option(help: "Team ID for the subject's OU.")
    var team = DefaultCredentials.teamID

    @Option(help: "Directory to write the files into.")
    var out = "."

    @Option(help: "Password of the .p12 bundle.")
    var password = "apns-mock"

    @Option(help: "Days the certificate is valid.")
    var days = 365

    @Option(name: .customLong("ca"), help: "CA certificate (default: certs/dev-ca.pem).")
    var caCertificate: String?

    @Option(name: .customLong("ca-key"), help: "CA private key (default: certs/dev-ca.key).")
    var caKey: String?

    var extraTopics: [String] {
        topics.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func validate() throws {
        for topic in [bundle] + extraTopics {
            let valid = !topic.isEmpty && !topic.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
                && topic.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "-" || $0 == "." }
            guard valid else { throw ValidationError("\(topic.debugDescription) is not a bundle ID or topic (letters, digits, '-' and '.')") }
        }
        guard days > 0 else { throw ValidationError("--days must be positive") }
    }

    func run() throws {
        let template = ProviderCertificateTemplate(
            bundleID: bundle, environments: environment.environments, extraTopics: extraTopics, teamID: team)
        let caPath = caCertificate ?? DefaultCredentials.certificateAuthority
        let keyPath = caKey ?? DefaultCredentials.certificateAuthorityKey
        let authority: ClientCertificateAuthority
        do {
            authority = try ClientCertificateAuthority(
                certificatePEM: try String(contentsOfFile: caPath, encoding: .utf8),
                privateKeyPEM: try String(contentsOfFile: keyPath, encoding: .utf8))
        } catch {
            throw CertgenFailure(description: "cannot load the CA (\(caPath), \(keyPath)): \(error)")
        }
        let issued = try authority.issue(
            subject: template.subject, extensions: template.extensions, days: days, pkcs12Password: password,
            friendlyName: template.commonName)
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = [
            ("\(bundle).cert.pem", Data(issued.certificatePEM.utf8), 0o644),
            ("\(bundle).key.pem", Data(issued.privateKeyPEM.utf8), 0o600),
            ("\(bundle).p12", Data(issued.pkcs12), 0o600),
        ]
        for (name, _, _) in files where FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path) {
            throw CertgenFailure(description: "\(directory.appendingPathComponent(name).path) already exists; choose another --out")
        }
        for (name, contents, mode) in files {
            let path = directory.appendingPathComponent(name).path
            guard FileManager.default.createFile(atPath: path, contents: contents, attributes: [.posixPermissions: mode]) else {
                throw CertgenFailure(description: "cannot write \(path)")
            }
        }
        let base = directory.appendingPathComponent(bundle).path
        print("Wrote \(base).cert.pem, \(base).key.pem and \(base).p12 (password \(password.debugDescription))")
        print("Subject: \(template.subject.map { "\($0.name)=\($0.value)" }.joined(separator: ", "))")
        print("Environment: \(template.environments.map(\.rawValue).joined(separator: "+")); topics: \(template.topics.joined(separator: ", "))")
        print("TEST-ONLY: issued by the mock's CA; Apple's servers do not accept it. Send with it:")
        print("  curl --http2 --cacert \(caPath) --cert \(base).cert.pem --key \(base).key.pem ...")
        print("  apns-mock push --cert \(base).cert.pem --cert-key \(base).key.pem ...")
    }
}

/// `--environment`.
enum CertificateEnvironment: String, ExpressibleByArgument, CaseIterable {
    case development, production, both

    var environments: [APNsEnvironment] {
        switch self {
        case .development: [.development]
        case .production: [.production]
        case .both: [.development, .production]
        }
    }
}

/// A failure after the arguments were accepted (printed without the usage text).
private struct CertgenFailure: Error, CustomStringConvertible {
    var description: String
}
