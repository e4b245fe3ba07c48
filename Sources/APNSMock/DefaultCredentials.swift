import Foundation

/// Where the TEST-ONLY credentials of `certs/` are found when no path is given: `./certs` first (the quick start
/// runs from the repository), then the `certs/` of the source tree this binary was built from.
public enum DefaultCredentials {
    public static let teamID = "TEAM123456"
    public static let keyID = "ABC123DEFG"
    public static let bundleID = "com.example.app"

    public static var certsDirectory: String {
        let local = FileManager.default.currentDirectoryPath + "/certs"
        if FileManager.default.fileExists(atPath: local + "/server.pem") { return local }
        // Sources/APNSMock/DefaultCredentials.swift → repository root.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return repository.appendingPathComponent("certs").path
    }

    public static var serverCertificate: String { certsDirectory + "/server.pem" }
    public static var serverKey: String { certsDirectory + "/server.key" }
    public static var certificateAuthority: String { certsDirectory + "/dev-ca.pem" }
    /// The CA's key, with which `apns-mock certgen` issues TEST-ONLY client certificates.
    public static var certificateAuthorityKey: String { certsDirectory + "/dev-ca.key" }
    public static var signingKey: String { certsDirectory + "/AuthKey_\(keyID).p8" }
}
