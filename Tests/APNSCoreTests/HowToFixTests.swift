import APNSCore
import CoreTestSupport
import Testing

/// "How to fix" comes from the rule that decided: one text per rejecting rule, one per APNs reason for the rest.
@Suite struct HowToFixTests {
    static var accepting: TableAuthenticator { TableAuthenticator(.accepted(TableAuthenticator.sender, warnings: [])) }

    /// Every rule that can reject has its own text (the `warn.*` rules never reject; `auth.provider-token` answers
    /// with many reasons, which say more than its id), and the table names no rule that does not exist.
    @Test func everyRejectingDeviceRuleHasItsOwnText() {
        let rejecting = PushRule.deviceOrder.map(\.id)
            .filter { !$0.hasPrefix("warn.") && $0 != "auth.provider-token" }
        for id in rejecting { #expect(HowToFix.byRule[id] != nil, "no fix text for \(id)") }
        let known = Set(rejecting + ["strict.live-activity-device"])
        for id in HowToFix.byRule.keys { #expect(known.contains(id), "fix text for unknown rule \(id)") }
    }

    @Test func everyAPNsReasonHasAText() {
        for reason in Reason.allCases { #expect(HowToFix.byReason[reason.rawValue] != nil, "no fix text for \(reason)") }
    }

    /// The README's first error: a Live Activity push to the bare bundle ID. APNs says DeviceTokenNotForTopic; the
    /// fix is the topic's suffix, not "the token belongs to another app".
    @Test func readmeFirstErrorSaysToAddTheTopicSuffix() throws {
        let verdict = PushRequests.validate(PushRequests.push(pushType: "liveactivity"), authenticator: Self.accepting)
        #expect(verdict.reason == .deviceTokenNotForTopic)
        let fix = try #require(HowToFix.text(ruleID: verdict.ruleID, reason: verdict.wireReason))
        #expect(fix.contains("<bundle ID>.push-type.liveactivity"))
        #expect(!fix.contains("another app"))
        #expect(fix != HowToFix.text(ruleID: "token.topic", reason: "DeviceTokenNotForTopic"))
    }

    /// Each request is decided by the rule named, and the fix shown for it is that rule's text.
    @Test(arguments: [
        ("route.path", PushRequests.push(token: "ab/cd")),
        ("route.method", PushRequests.push(method: "GET")),
        ("route.device-token-present", PushRequests.push(token: "")),
        ("headers.not-repeated", PushRequests.push(headers: [HeaderField("apns-priority", "10"), HeaderField("apns-priority", "5")])),
        ("headers.apns-id", PushRequests.push(headers: [HeaderField("apns-id", "nope")])),
        ("headers.apns-expiration", PushRequests.push(headers: [HeaderField("apns-expiration", "soon")])),
        ("headers.apns-priority", PushRequests.push(headers: [HeaderField("apns-priority", "7")])),
        ("headers.apns-push-type", PushRequests.push(pushType: "Alert")),
        ("headers.apns-collapse-id", PushRequests.push(headers: [HeaderField("apns-collapse-id", String(repeating: "c", count: 65))])),
        ("topic.has-bundle-id", PushRequests.push(topic: ".push-type.liveactivity", pushType: "liveactivity")),
        ("topic.suffix-not-doubled", PushRequests.push(topic: "com.example.app.voip.voip", pushType: "voip")),
        ("topic.syntax", PushRequests.push(topic: "com example app")),
        ("topic.push-type-suffix", PushRequests.push(pushType: "liveactivity")),
        ("token.format", PushRequests.push(token: "xyz")),
        ("payload.not-empty", PushRequests.push(body: "")),
        ("payload.size", PushRequests.push(body: "{}", bodyLength: 5000)),
        ("payload.json-object", PushRequests.push(body: "not json")),
    ])
    func theDecidingRulesTextIsTheFix(rule: String, request: HTTPRequest) {
        let verdict = PushRequests.validate(request, authenticator: Self.accepting)
        #expect(verdict.ruleID == rule)
        #expect(HowToFix.text(ruleID: verdict.ruleID, reason: verdict.wireReason) == HowToFix.byRule[rule])
    }

    @Test func rulesWithoutTheirOwnTextFallBackToTheReason() throws {
        #expect(HowToFix.text(ruleID: "auth.provider-token", reason: "ExpiredProviderToken")
            == HowToFix.byReason["ExpiredProviderToken"])
        #expect(HowToFix.text(ruleID: "broadcast.feature", reason: "FeatureNotEnabled")
            == HowToFix.byReason["FeatureNotEnabled"])
        let strict = try #require(HowToFix.text(ruleID: "strict.background-priority-10", reason: "MockStrict:background-priority-10"))
        #expect(strict.contains("background-priority-10") && strict.contains("rules.strict"))
        let fault = try #require(HowToFix.text(ruleID: "fault.respond", reason: "ServiceUnavailable"))
        #expect(fault.contains("fault injection") && fault.hasSuffix(HowToFix.byReason["ServiceUnavailable"]!))
        #expect(HowToFix.text(ruleID: nil, reason: nil) == nil)
    }
}
