import HTTP2
import Foundation
import Testing
@testable import APNSCommandLine

/// Which server, CA, key and bundle `apns-mock push` uses: flags, then profile, then APNS_MOCK_*, then the mock's
/// defaults; Apple's hosts never get the test key or the dev CA.
@Suite struct PushTargetResolverTests {
    static let defaults = PushDefaults(
        caFile: "/repo/certs/dev-ca.pem", keyFile: "/repo/certs/AuthKey_ABC123DEFG.p8", keyID: "ABC123DEFG",
        teamID: "TEAM123456", bundleID: "com.example.app")

    static func resolve(_ configure: (inout PushTargetFlags) -> Void = { _ in }, environment: [String: String] = [:]) throws -> PushTarget {
        var flags = PushTargetFlags()
        configure(&flags)
        return try PushTargetResolver.resolve(flags, environment: environment, defaults: defaults, homeDirectory: "/nonexistent-home", currentDirectory: "/nonexistent-cwd")
    }

    @Test func noFlagsIsTheLocalMock() throws {
        let target = try Self.resolve()
        #expect(target.endpoint == HTTP2Endpoint(host: "localhost", port: 2197, useTLS: true))
        #expect(target.tls.caFile == "/repo/certs/dev-ca.pem")
        #expect(target.keyFile == "/repo/certs/AuthKey_ABC123DEFG.p8")
        #expect(target.keyID == "ABC123DEFG")
        #expect(target.teamID == "TEAM123456")
        #expect(target.bundleID == "com.example.app")
        #expect(target.adminURL == "http://127.0.0.1:2198")
        #expect(target.adminURLIsGuess)
        #expect(!target.isApple)
    }

    /// What `apns-mock check` hands the command it runs.
    @Test func environmentOfCheck() throws {
        let target = try Self.resolve(environment: [
            "APNS_MOCK_URL": "https://localhost:40001", "APNS_MOCK_CA_FILE": "/tmp/ca.pem", "APNS_MOCK_KEY_FILE": "/tmp/k.p8",
            "APNS_MOCK_KEY_ID": "KEYKEYKEY1", "APNS_MOCK_TEAM_ID": "TEAMTEAM01", "APNS_MOCK_TOPIC": "com.acme.app",
            "APNS_MOCK_ADMIN_URL": "http://127.0.0.1:40002",
        ])
        #expect(target.endpoint.port == 40001)
        #expect(target.tls.caFile == "/tmp/ca.pem")
        #expect(target.keyFile == "/tmp/k.p8")
        #expect(target.keyID == "KEYKEYKEY1")
        #expect(target.teamID == "TEAMTEAM01")
        #expect(target.bundleID == "com.acme.app")
        #expect(target.adminURL == "http://127.0.0.1:40002")
        #expect(!target.adminURLIsGuess)
    }

    @Test func flagsWinOverEnvironment() throws {
        let target = try Self.resolve({
            $0.url = "http://127.0.0.1:9"
            $0.bundleID = "com.flag.app"
            $0.keyFile = "/keys/AuthKey_FLAGKEY001.p8"
            $0.teamID = "FLAGTEAM01"
        }, environment: ["APNS_MOCK_URL": "https://localhost:1", "APNS_MOCK_TOPIC": "com.env.app", "APNS_MOCK_KEY_ID": "ENVKEY0001"])
        #expect(target.endpoint == HTTP2Endpoint(host: "127.0.0.1", port: 9, useTLS: false))
        #expect(target.bundleID == "com.flag.app")
        #expect(target.keyID == "FLAGKEY001", "the key ID of a key file given by flag comes from its name, not the environment")
        #expect(target.adminURL == nil)
    }

    @Test(arguments: [(false, "https://api.sandbox.push.apple.com:443"), (true, "https://api.push.apple.com:443")])
    func appleUsesTheSystemTrustStoreAndYourKey(production: Bool, url: String) throws {
        let target = try Self.resolve {
            if production { $0.production = true } else { $0.sandbox = true }
            $0.keyFile = "/keys/AuthKey_REALKEY001.p8"
            $0.teamID = "REALTEAM01"
            $0.bundleID = "com.acme.app"
        }
        #expect(target.endpoint == HTTP2Endpoint(url: url))
        #expect(target.tls.caFile == nil)
        #expect(target.isApple)
        #expect(target.keyID == "REALKEY001")
        #expect(target.adminURL == nil)
    }

    @Test func appleWithoutAKeyIsAUsageError() {
        #expect(throws: PushBuildError.self) { try Self.resolve { $0.sandbox = true; $0.bundleID = "com.acme.app" } }
    }

    @Test(arguments: ["url and sandbox", "sandbox and production", "URL without scheme", "key without team", "profile without file"])
    func refusesBadTargets(name: String) {
        #expect(throws: PushBuildError.self, "\(name)") {
            try Self.resolve { f in
                switch name {
                case "url and sandbox": f.url = "https://x"; f.sandbox = true
                case "sandbox and production": f.sandbox = true; f.production = true
                case "URL without scheme": f.url = "localhost:2197"
                case "key without team": f.keyFile = "/keys/key.p8"
                default: f.profile = "staging"
                }
            }
        }
    }

    @Test func loopbackURLTrustsTheDevCAOtherHostsTheSystem() throws {
        #expect(try Self.resolve { $0.url = "https://127.0.0.1:8443" }.tls.caFile == "/repo/certs/dev-ca.pem")
        #expect(try Self.resolve { $0.url = "https://push.example.net" }.tls.caFile == nil)
    }

    @Test func profileFromFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-profiles-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("profiles.json")
        try Data(#"{"profiles":{"staging":{"environment":"sandbox","keyFile":"AuthKey_STAGEKEY01.p8","teamID":"STAGETEAM1","bundleID":"com.acme.staging"}}}"#.utf8).write(to: file)
        let target = try Self.resolve { $0.profile = "staging"; $0.profilesFile = file.path }
        #expect(target.isApple)
        #expect(target.keyFile == directory.path + "/AuthKey_STAGEKEY01.p8")
        #expect(target.keyID == "STAGEKEY01")
        #expect(target.bundleID == "com.acme.staging")
        #expect(throws: PushBuildError.self) { try Self.resolve { $0.profile = "prod"; $0.profilesFile = file.path } }
    }
}
