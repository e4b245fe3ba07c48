import APNSCore
import CoreTestSupport
import APNSCrypto
import Testing

@Suite("Signing-key registry: run-time changes and identifiers")
struct SigningKeyRegistryTests {
    @Test("keys and bundle IDs registered up front can be listed, removed and re-added")
    func runTimeChanges() throws {
        let key = try ES256PrivateKey.generate().publicKey
        let registry = try SigningKeyRegistry(
            keys: [SigningKey(teamID: "TEAM123456", keyID: "ABC123DEFG", environment: .production, verifier: key)],
            bundleIDsByTeam: ["TEAM123456": ["com.example.app"]])
        #expect(registry.keySummaries.map(\.keyID) == ["ABC123DEFG"])
        #expect(registry.keySummaries.first?.publicKeyFingerprint == key.publicKeyFingerprint)
        #expect(registry.removeBundleID("com.example.app", fromTeam: "TEAM123456"))
        #expect(!registry.removeBundleID("com.example.app", fromTeam: "TEAM123456"))
        #expect(registry.bundleIDs(ofTeam: "TEAM123456").isEmpty)
        #expect(registry.removeKey(id: "ABC123DEFG"))
        #expect(registry.entry(forKeyID: "ABC123DEFG") == nil)
        #expect(throws: KeyRegistryError.invalidTeamID("short")) { try registry.addBundleID("x", toTeam: "short") }
    }

    @Test("Team and Key IDs must be ten upper-case letters or digits; generated ones are", arguments: [
        ("ABC123DEFG", true), ("abc123defg", false), ("ABC123DEF", false), ("ABC123DEFGH", false), ("ABC-23DEFG", false),
    ])
    func identifiers(_ text: String, _ valid: Bool) {
        #expect(AppleIdentifier.isValid(text) == valid)
        var generator = SplitMix64(seed: UInt64(text.utf8.count))
        #expect(AppleIdentifier.isValid(AppleIdentifier.random(using: &generator)))
    }

    @Test("a topic-specific key needs at least one topic")
    func emptyTopicList() throws {
        let key = try ES256PrivateKey.generate().publicKey
        #expect(throws: KeyRegistryError.emptyTopicList(keyID: "ABC123DEFG")) {
            try SigningKey(teamID: "TEAM123456", keyID: "ABC123DEFG", topics: [], verifier: key)
        }
    }
}
