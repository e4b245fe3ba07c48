import Foundation

/// The TEST-ONLY credentials of `certs/` (CA, server certificate, sample signing key) used when no path is given.
/// They are compiled into the binary (`TestOnlyCredentials/`, links to `certs/`), so a copied binary needs no
/// source tree: `./certs` is used when it holds them (the quick start runs from the repository), otherwise the
/// embedded copy is written once to a per-user directory (`$XDG_CACHE_HOME/apns-mock/test-only-certs`, else
/// `~/.cache/…`, else the temporary directory), because OpenSSL and the senders `check` runs read them as files.
package enum DefaultCredentials {
    package static let teamID = "TEAM123456"
    package static let keyID = "ABC123DEFG"
    package static let bundleID = "com.example.app"

    /// The embedded files by name, as in `certs/`.
    static let embedded: [(name: String, bytes: [UInt8], isPrivateKey: Bool)] = [
        ("server.pem", PackageResources.server_pem, false),
        ("server.key", PackageResources.server_key, true),
        ("dev-ca.pem", PackageResources.dev_ca_pem, false),
        ("dev-ca.key", PackageResources.dev_ca_key, true),
        ("AuthKey_\(keyID).p8", PackageResources.AuthKey_ABC123DEFG_p8, true),
    ]

    /// Where the files are: found or written on first use. When no directory could be written, the last one
    /// tried, so the reader's "cannot read" error names it.
    package static let certsDirectory: String = locate()

    private static func locate() -> String {
        let local = FileManager.default.currentDirectoryPath + "/certs"
        if FileManager.default.fileExists(atPath: local + "/server.pem") { return local }
        let candidates = materializationDirectories()
        for candidate in candidates where (try? materialize(into: candidate)) != nil { return candidate }
        return candidates[candidates.count - 1]
    }

    /// Per-user places for the embedded copy, most stable first.
    static func materializationDirectories(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        var directories: [String] = []
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            directories.append(cache + "/apns-mock/test-only-certs")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            directories.append(home + "/.cache/apns-mock/test-only-certs")
        }
        let temporary = (environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp")
        directories.append(temporary + "/apns-mock-\(getuid())/test-only-certs")
        return directories
    }

    /// Writes every embedded file into `directory` unless it is there with the same bytes (atomically: a
    /// concurrent reader sees the old file or the new one). Keys are readable by their owner only.
    static func materialize(into directory: String) throws {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for file in embedded {
            let path = directory + "/" + file.name
            let bytes = Data(file.bytes)
            if FileManager.default.contents(atPath: path) == bytes { continue }
            try bytes.write(to: URL(fileURLWithPath: path), options: .atomic)
            try FileManager.default.setAttributes(
                [.posixPermissions: file.isPrivateKey ? 0o600 : 0o644], ofItemAtPath: path)
        }
    }

    package static var serverCertificate: String { certsDirectory + "/server.pem" }
    package static var serverKey: String { certsDirectory + "/server.key" }
    package static var certificateAuthority: String { certsDirectory + "/dev-ca.pem" }
    /// The CA's key, with which `apns-mock certgen` issues TEST-ONLY client certificates.
    package static var certificateAuthorityKey: String { certsDirectory + "/dev-ca.key" }
    package static var signingKey: String { certsDirectory + "/AuthKey_\(keyID).p8" }
}
