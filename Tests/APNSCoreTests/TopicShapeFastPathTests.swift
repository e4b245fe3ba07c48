@testable import APNSCore
import CoreTestSupport
import Testing

/// Authentication tells the usual topic well-formed in one pass (`PushRule.isWellShapedTopic`) instead of running
/// the four topic-shape rules: it may call a topic well-formed only when every one of those rules passes it, and it
/// does so for the usual ASCII topics (else the rules run, as before).
@Suite struct TopicShapeFastPathTests {
    static let topics: [String] = [
        "com.example.app", "com.example.app.push-type.liveactivity", "com.example.app.voip", "a", "A-9.b",
        "push-type.liveactivity", ".push-type.liveactivity", "voip", ".voip", "location-query", "voip-ptt",
        "pushkit.fileprovider", "push-type.widgets", "push-type.controls", "complication",
        "com.example.app.push-type.liveactivity.push-type.liveactivity", "com.example.app.voip.voip",
        "x.voip.voip", "voip.voip", ".voip.voip", "com.example.app.voip-ptt.voip-ptt", "com..example", ".com",
        "com.", "", " ", "\t", "com example", "com.exämple", "com_example", "com/example", "e\u{301}.app",
        "com.example.app.push-type.liveactivitY", "com.example.app.complication.complication",
    ]

    @Test(arguments: topics)
    func fastPathAgreesWithTheFourRules(topic: String) {
        var evaluation = PushEvaluation(
            request: PushRequests.push(topic: topic, pushType: nil), configuration: RuleConfiguration(),
            tokens: DeviceTokenRegistry(), authenticator: nil, now: PushRequests.now)
        let rulesPass = PushRule.topicShape.allSatisfy { $0.apply(to: &evaluation) == nil }
        let fast = PushRule.isWellShapedTopic(topic, implied: PushType.implied(byTopic: topic))
        // Fast true only where the rules pass; for ASCII topics the two agree exactly.
        #expect(!fast || rulesPass, "\(topic.debugDescription)")
        if topic.utf8.allSatisfy({ $0 < 0x80 }) { #expect(fast == rulesPass, "\(topic.debugDescription)") }
    }

    /// Every byte value alone and inside a topic: a letter, digit or `-` is allowed, `.` only between parts.
    @Test func bundleIDShapeOfEveryByte() {
        for byte in UInt8.min...UInt8.max {
            let allowed = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            let inside = String(decoding: [UInt8(ascii: "a"), byte, UInt8(ascii: "b")], as: UTF8.self)
            #expect(PushRule.isBundleIDShaped(inside) == (allowed || byte == UInt8(ascii: ".")), "byte \(byte)")
            let alone = String(decoding: [byte], as: UTF8.self)
            #expect(PushRule.isBundleIDShaped(alone) == allowed, "byte \(byte)")
        }
        #expect(PushRule.isBundleIDShaped("a.b"))
        #expect(!PushRule.isBundleIDShaped("a..b"))
    }

    /// The implied push type is worked out once per topic; a topic changed since (certificate authentication fills
    /// it in) gets its own.
    @Test func impliedPushTypeFollowsTheTopic() {
        var evaluation = PushEvaluation(
            request: PushRequests.push(topic: "com.example.app.voip", pushType: nil),
            configuration: RuleConfiguration(), tokens: DeviceTokenRegistry(), authenticator: nil,
            now: PushRequests.now)
        #expect(evaluation.pushTypeImplied(byTopic: "com.example.app.voip") == .voip)
        #expect(evaluation.pushTypeImplied(byTopic: "com.example.app.voip") == .voip)
        #expect(evaluation.pushTypeImplied(byTopic: "com.example.app.push-type.liveactivity") == .liveactivity)
        #expect(evaluation.pushTypeImplied(byTopic: "com.example.app") == nil)
    }

    /// The path rule and the token-format rule share one count of the token's hex digits; the answer for a token
    /// with a `/`, a non-hex character or an odd length is the one each rule gave before.
    @Test(arguments: [
        ("ab12", nil), ("ab/12", "route.path"), ("abz2", "token.format"), ("abc", "token.format"),
        ("ab12/", "route.path"), ("é", "token.format"),
    ] as [(String, String?)])
    func sharedTokenScan(token: String, ruleID: String?) {
        let verdict = PushRequests.validate(PushRequests.push(token: token))
        #expect(verdict.ruleID == ruleID, "\(token)")
        var evaluation = PushEvaluation(
            request: PushRequests.push(token: token), configuration: RuleConfiguration(),
            tokens: DeviceTokenRegistry(), authenticator: nil, now: PushRequests.now)
        let scan = evaluation.deviceTokenHexScan()
        #expect(DeviceTokenFormat.problem(with: token, scan: scan) == DeviceTokenFormat.problem(with: token))
    }
}

/// A listener's label reads as the environment it names; any other label is development (as the raw-value
/// initializer with its fallback read it).
@Suite struct ListenerEnvironmentTests {
    @Test(arguments: [
        ("production", APNsEnvironment.production), ("development", .development), ("", .development),
        ("Production", .development), ("production ", .development), ("sandbox", .development),
    ])
    func labelReadsAsEnvironment(label: String, environment: APNsEnvironment) {
        let connection = ConnectionInfo(id: 1, remoteAddress: "127.0.0.1", localPort: 0, tls: nil, listenerLabel: label)
        #expect(connection.environment == environment)
        #expect(connection.environment == (APNsEnvironment(rawValue: label) ?? .development))
    }
}
