import APNSCore
import APNSJSON
import Testing

/// `PushFindings` keeps its fields in one shared box: copies share it, and changing a copy changes only that copy.
@Suite struct PushFindingsStorageTests {
    static let findings = PushFindings(
        facts: PushFacts(deviceToken: "aa", topic: "com.example.app", pushType: .alert), explanation: "why",
        ruleID: "rule", environment: .production, payload: .object([JSONMember("aps", .object([]))]))

    @Test func aChangedCopyLeavesTheOriginalAlone() {
        let original = Self.findings
        var copy = original
        copy.facts.topic = "com.example.other"
        copy.warnings.append(PushWarningCode.apsMissing.warning("none"))
        copy.explanation = nil
        copy.ruleID = "other"
        copy.environment = .development
        copy.payload = nil
        #expect(original == Self.findings)
        #expect(original.facts.topic == "com.example.app" && original.warnings.isEmpty)
        #expect(original.explanation == "why" && original.ruleID == "rule" && original.environment == .production)
        #expect(original.payload != nil)
        #expect(copy != original)
        #expect(copy.facts.topic == "com.example.other" && copy.warnings.count == 1 && copy.payload == nil)
    }

    @Test func equalFieldsAreEqualAndHashAlike() {
        let same = PushFindings(
            facts: PushFacts(deviceToken: "aa", topic: "com.example.app", pushType: .alert), explanation: "why",
            ruleID: "rule", environment: .production, payload: .object([JSONMember("aps", .object([]))]))
        #expect(same == Self.findings)
        #expect(same.hashValue == Self.findings.hashValue)
        var other = same
        other.sender = AuthenticatedSender(
            teamID: "T", keyID: "K", tokenFingerprint: "f", headerJSON: "{}", claimsJSON: "{}")
        #expect(other != same)
        var verdict = Verdict.accepted(same)
        verdict.appendWarnings([PushWarningCode.apsMissing.warning("none")])
        #expect(verdict.warnings.count == 1 && same.warnings.isEmpty)
    }
}
