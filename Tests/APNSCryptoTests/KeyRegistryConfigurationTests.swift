import APNSCore
import APNSCrypto
import Foundation
import Testing

@Suite("Key registry from configuration and CLI flags")
struct KeyRegistryConfigurationTests {
    @Test("--key TEAMID:KEYID:path parses, keeping colons in the path", arguments: [
        ("TEAM123456:ABC123DEFG:certs/AuthKey_ABC123DEFG.p8", "certs/AuthKey_ABC123DEFG.p8"),
        ("TEAM123456:ABC123DEFG:C:/keys/a.p8", "C:/keys/a.p8"),
    ])
    func keyFlag(_ text: String, _ path: String) throws {
        let flag = try KeyFlag(parsing: text)
        #expect(flag.teamID == "TEAM123456" && flag.keyID == "ABC123DEFG" && flag.path == path)
    }

    @Test("malformed --key flags are refused with the expected shape", arguments: [
        ("TEAM123456:ABC123DEFG", KeyRegistryError.malformedKeyFlag("TEAM123456:ABC123DEFG")),
        ("TEAM123456:ABC123DEFG:", .malformedKeyFlag("TEAM123456:ABC123DEFG:")),
        ("team123456:ABC123DEFG:k.p8", .invalidTeamID("team123456")),
        ("TEAM123456:ABC123:k.p8", .invalidKeyID("ABC123")),
    ])
    func malformedKeyFlags(_ text: String, _ error: KeyRegistryError) {
        #expect(throws: error) { try KeyFlag(parsing: text) }
        #expect(error.description.contains(error == .malformedKeyFlag(text) ? "TEAMID:KEYID" : "ten upper-case"))
    }

    @Test("--topic TEAMID:BUNDLEID parses; malformed ones are refused")
    func topicFlag() throws {
        let flag = try TopicFlag(parsing: "TEAM123456:com.example.app")
        #expect(flag.teamID == "TEAM123456" && flag.bundleID == "com.example.app")
        #expect(throws: KeyRegistryError.malformedTopicFlag("TEAM123456")) { try TopicFlag(parsing: "TEAM123456") }
        #expect(throws: KeyRegistryError.malformedTopicFlag("TEAM123456:")) { try TopicFlag(parsing: "TEAM123456:") }
        #expect(throws: KeyRegistryError.invalidTeamID("T1")) { try TopicFlag(parsing: "T1:com.example.app") }
    }

    @Test("a JSON configuration with p8, PEM file and inline PEM keys builds the registry, flags merged in")
    func fromJSON() throws {
        let directory = try OpenSSLCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dev = try ES256PrivateKey.generate()
        let topicKey = try ES256PrivateKey.generate()
        try dev.publicKey.pemRepresentation.write(to: directory.appendingPathComponent("dev.pub.pem"), atomically: true, encoding: .utf8)
        let inline = topicKey.publicKey.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n")
        let json = """
            {"teams": [
              {"teamID": "TEAM123456", "bundleIDs": ["com.example.app"], "keys": [
                {"keyID": "DEVKEY0001", "publicKeyPath": "dev.pub.pem", "environment": "development"},
                {"keyID": "TOPICKEY01", "publicKeyPEM": "\(inline)", "environment": "production",
                 "topics": ["com.example.app"], "relatedKeyID": "TOPICKEY02"}
              ]}
            ]}
            """
        var configuration = try JSONDecoder().decode(KeyRegistryConfiguration.self, from: Data(json.utf8))
        try configuration.add(
            keyFlags: [KeyFlag(parsing: "TEAM123456:ABC123DEFG:\(certsDirectory.path)/AuthKey_ABC123DEFG.p8")],
            topicFlags: [TopicFlag(parsing: "TEAM123456:com.example.other"), TopicFlag(parsing: "TEAMNEW001:com.new.app")])
        let registry = try SigningKeyRegistry(configuration: configuration, relativeTo: directory)
        let summaries = registry.keySummaries
        #expect(summaries.map(\.keyID) == ["ABC123DEFG", "DEVKEY0001", "TOPICKEY01"])
        #expect(summaries.map(\.environment) == [.both, .development, .production])
        #expect(summaries[2].topics == ["com.example.app"] && summaries[2].relatedKeyID == "TOPICKEY02")
        #expect(summaries[1].publicKeyFingerprint == dev.publicKey.publicKeyFingerprint)
        #expect(registry.bundleIDs(ofTeam: "TEAM123456") == ["com.example.app", "com.example.other"])
        #expect(registry.bundleIDs(ofTeam: "TEAMNEW001") == ["com.new.app"])
    }

    @Test("key entries with no, two, or unreadable key material are refused naming the key")
    func badKeySources() throws {
        let cases: [(KeyRegistryConfiguration.Key, String)] = [
            (.init(keyID: "KEYAAAAAA1"), "names no key material"),
            (.init(keyID: "KEYAAAAAA1", p8: "a.p8", publicKeyPEM: "x"), "more than one"),
            (.init(keyID: "KEYAAAAAA1", p8: "does-not-exist.p8"), "cannot read"),
            (.init(keyID: "KEYAAAAAA1", publicKeyPEM: "garbage"), "not a PEM public key"),
            (.init(keyID: "KEYAAAAAA1", p8: "AuthKey_ABC123DEFG.pub.pem"), "not a PEM private key"),
        ]
        for (key, message) in cases {
            let configuration = KeyRegistryConfiguration(teams: [.init(teamID: "TEAM123456", keys: [key])])
            #expect {
                try SigningKeyRegistry(configuration: configuration, relativeTo: certsDirectory)
            } throws: { error in
                String(describing: error).contains(message) && String(describing: error).contains("KEYAAAAAA1")
            }
        }
    }

    @Test("a partial policy decodes with defaults for the rest")
    func partialPolicy() throws {
        let policy = try JSONDecoder().decode(
            ProviderTokenPolicy.self, from: Data(#"{"tokenUpdateInterval": 60, "environmentMismatchReason": "observed"}"#.utf8))
        #expect(policy == ProviderTokenPolicy(tokenUpdateInterval: 60, environmentMismatchReason: .observed))
        #expect(try JSONDecoder().decode(ProviderTokenPolicy.self, from: Data("{}".utf8)) == ProviderTokenPolicy())
    }
}
