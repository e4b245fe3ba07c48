@testable import APNSCore
@testable import APNSStore
import DeliveryFixtures
import APNSCommandLine
import Foundation
import Testing

/// The fix text a person reads is the deciding rule's (`HowToFix`), in `explain` and in the admin API's record (the
/// inspector shows the API's `fix`); an accepted push whose warnings break the device is not a plain "accepted".
@Suite("How to fix, and pushes the device will misbehave on")
struct HowToFixRenderingTests {
    static func presented(_ record: DeliveryRecord) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(record.jsonBytes(providerTokenAsObjects: true)))
        return try #require(object as? [String: Any])
    }

    static func rejected(rule: String, reason: String) -> DeliveryRecord {
        var record = makeRecord(status: 400, reason: reason, explanation: "why")
        record.ruleID = rule
        return record
    }

    @Test("each rule's fix text is the one explain and the admin API show", arguments: HowToFix.byRule.keys.sorted())
    func eachRulesText(rule: String) throws {
        let record = Self.rejected(rule: rule, reason: "DeviceTokenNotForTopic")
        let text = try #require(HowToFix.byRule[rule])
        let explained = DeliveryExplanation.render(record, style: TerminalStyle(colour: false, width: 100))
        #expect(explained.contains("\nhow to fix: \(text)\n"))
        #expect(try Self.presented(record)["fix"] as? String == text)
    }

    @Test("the stored form has no fix; an accepted push has none")
    func storedFormAndAccepted() throws {
        let stored = String(decoding: Self.rejected(rule: "token.topic", reason: "DeviceTokenNotForTopic").jsonBytes, as: UTF8.self)
        #expect(!stored.contains("\"fix\""))
        #expect(try Self.presented(makeRecord())["fix"] == nil)
    }

    static let misbehaving = [PushWarning(code: "la-timestamp-milliseconds", message: "in milliseconds")]

    @Test("a millisecond timestamp the device applied is not a plain accepted")
    func misbehavingVerdict() throws {
        let record = makeRecord(pushType: "liveactivity", warnings: Self.misbehaving + [
            PushWarning(code: "la-content-state-unchecked", message: "no schema"),
        ], liveActivityCode: "applied")
        #expect(record.statusLabel == "200 · device will misbehave")
        #expect(try Self.presented(record)["deviceWillMisbehave"] as? [String] == ["la-timestamp-milliseconds"])
        let text = DeliveryExplanation.render(record, style: TerminalStyle(colour: false, width: 100))
        #expect(text.hasPrefix("ACCEPTED · DEVICE WILL MISBEHAVE  200"))
        let table = DeliveryTable.render([record.withID(1)], style: TerminalStyle(colour: true, width: 200))
        #expect(table.contains("\u{1B}[33m200 · device will misbehave"))
        #expect(table.contains("⚠ la-timestamp-milliseconds: in milliseconds"))
    }

    @Test("a drop, a rejection and advice that loses nothing keep their own verdict")
    func otherVerdictsUnchanged() throws {
        let dropped = makeRecord(pushType: "liveactivity", warnings: Self.misbehaving,
                                 liveActivityCode: "droppedUndecodableContentState")
        #expect(dropped.statusLabel == "200 · dropped by device")
        #expect(try Self.presented(dropped)["deviceWillMisbehave"] == nil)
        let rejected = makeRecord(status: 400, reason: "BadTopic", warnings: Self.misbehaving)
        #expect(!rejected.willMisbehaveOnDevice)
        let advice = makeRecord(warnings: [PushWarning(code: "push-type-missing", message: "send it")])
        #expect(advice.statusLabel == "200")
        #expect(DeliveryExplanation.render(advice, style: TerminalStyle(colour: false, width: 100)).hasPrefix("ACCEPTED  200"))
    }
}
