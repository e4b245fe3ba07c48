import APNSCore
import APNSCrypto
import ArgumentParser
import Foundation

/// `apns-mock keygen`: writes a fresh ES256 signing key as `AuthKey_<KEYID>.p8` (the format Apple issues) for
/// people without an Apple key at hand, and prints the `--key` flag that registers it with the mock.
struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Generate a test APNs signing key (AuthKey_<KEYID>.p8) and print the --key flag for it.",
        discussion: """
            The key is a fresh P-256 key written as PKCS#8 PEM, like the .p8 files Apple issues. It is for the mock
            only: Apple's servers do not know it. The file is created with mode 0600 and never overwritten. \
            By default it goes to .apns-mock/keys/ (next to the default data directory), not the working \
            directory: add .apns-mock/ to your .gitignore so no key is committed.
            """)

    @Option(help: "Team ID the key belongs to (10 upper-case letters or digits).")
    var team = "TEAM123456"

    @Option(name: .customLong("key-id"), help: "Key ID to use instead of a random one (10 upper-case letters or digits).")
    var keyID: String?

    @Option(help: "Directory to write AuthKey_<KEYID>.p8 into.")
    var out = KeygenCommand.defaultDirectory

    func validate() throws {
        guard AppleIdentifier.isValid(team) else { throw ValidationError(KeyRegistryError.invalidTeamID(team).description) }
        if let keyID, !AppleIdentifier.isValid(keyID) {
            throw ValidationError(KeyRegistryError.invalidKeyID(keyID).description)
        }
    }

    func run() throws {
        let keyID = keyID ?? AppleIdentifier.random()
        let key = try ES256PrivateKey.generate()
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("AuthKey_\(keyID).p8")
        guard !FileManager.default.fileExists(atPath: file.path) else {
            throw KeygenFailure(description: "\(file.path) already exists; choose another --key-id or --out")
        }
        let created = FileManager.default.createFile(
            atPath: file.path, contents: Data(try key.pkcs8PEM().utf8), attributes: [.posixPermissions: 0o600])
        guard created else { throw KeygenFailure(description: "cannot write \(file.path)") }
        print("Wrote \(file.path) (Key ID \(keyID), team \(team), public key \(key.publicKey.publicKeyFingerprint.prefix(16)))")
        print("Register it with the mock:")
        print("  --key \(team):\(keyID):\(file.path)")
        print("It is a private key: keep it out of version control (add .apns-mock/ to your .gitignore).")
    }
}

extension KeygenCommand {
    /// Under the default data directory (`.apns-mock`), which the project's .gitignore and docs tell users to ignore.
    static let defaultDirectory = ".apns-mock/keys"
}

/// A failure after the arguments were accepted (printed without the usage text).
private struct KeygenFailure: Error, CustomStringConvertible {
    var description: String
}
