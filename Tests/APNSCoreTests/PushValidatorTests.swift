import APNSCore
import CoreTestSupport
import Testing

@Suite struct PushValidatorTests {
    @Test func ruleIdentifiersAreUniqueAndFollowTheDocumentedOrder() {
        let ids = PushRule.deviceOrder.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == [
            "route.path", "route.method", "route.device-token-present",
            "headers.not-repeated", "headers.apns-id", "headers.apns-expiration", "headers.apns-priority",
            "headers.apns-push-type", "headers.apns-collapse-id",
            "auth.provider-token",
            "topic.present", "topic.has-bundle-id", "topic.suffix-not-doubled", "topic.syntax",
            "topic.push-type-suffix",
            "token.format", "token.declared", "token.environment", "token.topic", "token.active",
            "payload.not-empty", "payload.size", "payload.json-object",
            "warn.background-priority", "warn.background-payload", "warn.expiration", "warn.liveactivity-priority",
            "warn.aps-present", "warn.aps-keys", "warn.aps-dates",
        ])
    }

    @Test func liveActivityTopicExplanationSaysWhatToChange() {
        let verdict = PushRequests.validate(
            PushRequests.push(pushType: "liveactivity"),
            authenticator: TableAuthenticator(.accepted(TableAuthenticator.sender, warnings: [])))
        #expect(verdict.reason == .deviceTokenNotForTopic)
        #expect(verdict.ruleID == "topic.push-type-suffix")
        let expected =
            "apns-topic must end in .push-type.liveactivity when apns-push-type is liveactivity; got com.example.app"
        #expect(verdict.explanation == expected)
    }

    @Test func acceptedPushRecordsTheRequestFactsAndSender() {
        let authenticator = TableAuthenticator(.accepted(TableAuthenticator.sender, warnings: []))
        let request = PushRequests.push(headers: [
            HeaderField("apns-id", "123e4567-e89b-12d3-a456-4266554400a0"), HeaderField("apns-priority", "5"),
            HeaderField("apns-expiration", "4102444800"), HeaderField("apns-collapse-id", "score"),
        ])
        let verdict = PushRequests.validate(request, authenticator: authenticator)
        #expect(verdict.status == 200)
        #expect(verdict.reason == nil && verdict.wireReason == nil && verdict.ruleID == nil)
        #expect(verdict.sender == TableAuthenticator.sender)
        #expect(verdict.deviceToken == PushRequests.token)
        #expect(verdict.topic == "com.example.app")
        #expect(verdict.pushType == .alert)
        #expect(verdict.apnsID == "123e4567-e89b-12d3-a456-4266554400a0")
        #expect(verdict.priority == 5)
        #expect(verdict.expiration == 4_102_444_800)
        #expect(verdict.collapseID == "score")
    }

    @Test func authenticatorSeesEveryAuthorizationValueAndTheRequestContext() throws {
        let authenticator = TableAuthenticator(.accepted(TableAuthenticator.sender, warnings: []))
        let request = PushRequests.push(
            topic: "com.example.app.push-type.liveactivity", pushType: "liveactivity",
            headers: [HeaderField("authorization", "bearer one"), HeaderField("authorization", "bearer two")],
            environment: .development)
        _ = PushRequests.validate(
            request, configuration: RuleConfiguration(environmentOverride: .production), authenticator: authenticator)
        let seen = try #require(authenticator.requests.first)
        #expect(authenticator.requests.count == 1)
        #expect(seen.authorization == ["bearer one", "bearer two"])
        #expect(seen.firstAuthorization == "bearer one")
        #expect(seen.laterAuthorization == ["bearer two"])
        #expect(seen.topic == "com.example.app.push-type.liveactivity")
        #expect(seen.pushType == .liveactivity)
        #expect(seen.environment == .production)
        #expect(seen.now == PushRequests.now)
    }

    @Test func authenticatorSeesASingleAuthorizationValueAsTheFirstAlone() throws {
        let authenticator = TableAuthenticator(.accepted(TableAuthenticator.sender, warnings: []))
        let request = PushRequests.push(headers: [HeaderField("authorization", "bearer one")])
        _ = PushRequests.validate(request, authenticator: authenticator)
        let seen = try #require(authenticator.requests.first)
        #expect(seen.firstAuthorization == "bearer one")
        #expect(seen.laterAuthorization.isEmpty)
        #expect(seen.authorization == ["bearer one"])
        _ = PushRequests.validate(PushRequests.push(), authenticator: authenticator)
        #expect(authenticator.requests.last?.firstAuthorization == nil)
        #expect(authenticator.requests.last?.authorization == [])
    }

    @Test func authenticatorIsNotAskedWhenHeaderSanityFails() {
        let authenticator = TableAuthenticator(.accepted(TableAuthenticator.sender, warnings: []))
        let verdict = PushRequests.validate(
            PushRequests.push(pushType: "bogus"), authenticator: authenticator)
        #expect(verdict.reason == .invalidPushType)
        #expect(authenticator.requests.isEmpty)
    }

    @Test func authenticatorWarningsReachTheVerdict() {
        let warning = PushWarning(code: "jwt-iat-string", message: "iat is a string")
        let authenticator = TableAuthenticator(.accepted(TableAuthenticator.sender, warnings: [warning]))
        let verdict = PushRequests.validate(PushRequests.push(), authenticator: authenticator)
        #expect(verdict.status == 200)
        #expect(verdict.warnings == [warning])
    }

    @Test func authenticatorWarningsCanBeMadeStrict() {
        let warning = PushWarning(code: "jwt-iat-string", message: "iat is a string")
        let authenticator = TableAuthenticator(.accepted(TableAuthenticator.sender, warnings: [warning]))
        let verdict = PushRequests.validate(
            PushRequests.push(), configuration: RuleConfiguration(strict: [StrictRejection(code: "jwt-iat-string")]),
            authenticator: authenticator)
        #expect(verdict.status == 400)
        #expect(verdict.wireReason == "MockStrict:jwt-iat-string")
        #expect(verdict.ruleID == "strict.jwt-iat-string")
    }

    @Test func strictAnswerMayUseAnAPNsReasonButStaysLabelledAsTheMocks() {
        let configuration = RuleConfiguration(
            strict: [StrictRejection(.backgroundPriority10, wireReason: "BadPriority")])
        let verdict = PushRequests.validate(
            PushRequests.push(pushType: "background", body: #"{"aps":{"content-available":1}}"#),
            configuration: configuration)
        #expect(verdict.status == 400)
        #expect(verdict.reason == .badPriority)
        #expect(verdict.isStrictMockAnswer)
        #expect(verdict.explanation?.hasPrefix("strict mode (the mock's rule, not APNs')") == true)
    }

    @Test func tokenOnlyReasonWithoutAuthenticatorIsConfigurable() {
        let verdict = PushRequests.validate(
            PushRequests.push(topic: "com.example.app.push-type.liveactivity", pushType: "liveactivity"),
            configuration: RuleConfiguration(tokenOnlyPushWithoutToken: .missingProviderToken))
        #expect(verdict.status == 403)
        #expect(verdict.reason == .missingProviderToken)
        #expect(verdict.ruleID == "auth.provider-token")
    }

    @Test func environmentOverrideDecidesTheTokenEnvironment() {
        let tokens = DeviceTokenRegistry([
            DeclaredDeviceToken(token: PushRequests.token, bundleID: "com.example.app", environment: .production),
        ])
        let request = PushRequests.push(environment: .development)
        #expect(PushRequests.validate(request, tokens: tokens).reason == .badDeviceToken)
        let overridden = PushRequests.validate(
            request, configuration: RuleConfiguration(environmentOverride: .production), tokens: tokens)
        #expect(overridden.status == 200)
        #expect(overridden.environment == .production)
    }

    @Test func tokensDeclaredAtRunTimeTakeEffectOnTheNextPush() {
        let tokens = DeviceTokenRegistry()
        let validator = PushValidator(configuration: RuleConfiguration(), tokens: tokens)
        let request = PushRequests.push()
        #expect(validator.evaluate(request, authenticator: nil, now: PushRequests.now).status == 200)
        tokens.declare(DeclaredDeviceToken(
            token: PushRequests.token, bundleID: "com.example.app",
            state: .unregistered(at: Timestamp(nanosecondsSinceEpoch: 1_000_000_000_000_000_000))))
        let verdict = validator.evaluate(request, authenticator: nil, now: PushRequests.now)
        #expect(verdict.status == 410)
        #expect(verdict.timestamp == 1_000_000_000_000)
        #expect(verdict.ruleID == "token.active")
    }

    @Test func sizeCountsEveryReceivedByteEvenWhenTheTransportKeptFewer() {
        let verdict = PushRequests.validate(PushRequests.push(bodyLength: 9000))
        #expect(verdict.status == 413)
        #expect(verdict.explanation == "alert payloads may be at most 4096 bytes; got 9000 bytes")
    }

    @Test func configuredMaximumTokenLengthRejectsLongerTokens() {
        let verdict = PushRequests.validate(
            PushRequests.push(token: String(repeating: "ab", count: 101)),
            configuration: RuleConfiguration(maximumDeviceTokenHexLength: 200))
        #expect(verdict.reason == .badDeviceToken)
    }

    @Test func rulesRunAloneOnAnEvaluation() {
        var evaluation = PushEvaluation(
            request: PushRequests.push(topic: "com.example.app.voip.voip", pushType: "voip"),
            configuration: RuleConfiguration(), tokens: DeviceTokenRegistry(), authenticator: nil,
            now: PushRequests.now)
        #expect(PushRule.topicPresent.apply(to: &evaluation) == nil)
        #expect(PushRule.topicSuffixNotDoubled.apply(to: &evaluation)?.reason == .topicDisallowed)
    }

    @Test func extraRulesPlugInAfterTheStandardOrder() {
        let extra = PushRule(id: "test.always-warn") { evaluation in
            evaluation.warnings.append(PushWarning(code: "test", message: "from a plugged-in rule"))
            return nil
        }
        let validator = PushValidator(
            configuration: RuleConfiguration(), tokens: DeviceTokenRegistry(), rules: PushRule.deviceOrder + [extra])
        let verdict = validator.evaluate(PushRequests.push(), authenticator: nil, now: PushRequests.now)
        #expect(verdict.warnings.map(\.code) == ["test"])
    }

    /// The date rules read the first of duplicate `aps` keys, as the device does; a later duplicate changes nothing.
    @Test func apsDateWarningsReadTheFirstOfDuplicateKeys() {
        let verdict = PushRequests.validate(PushRequests.push(body: """
            {"aps":{"alert":"Hi","timestamp":1767225600000,"timestamp":1,"stale-date":5,"stale-date":1767225600000,\
            "dismissal-date":1767225600000,"dismissal-date":2}}
            """))
        #expect(verdict.warnings.map(\.code).filter { $0.hasPrefix("aps-") } == [
            "aps-timestamp-milliseconds", "aps-dismissal-date-milliseconds", "aps-stale-date-past",
        ])
        let clean = PushRequests.validate(PushRequests.push(body: #"{"aps":{"alert":"Hi","timestamp":1,"timestamp":1767225600000}}"#))
        #expect(clean.warnings.filter { $0.code.hasPrefix("aps-") }.isEmpty)
    }

    @Test func warningsExplainThemselves() {
        let verdict = PushRequests.validate(
            PushRequests.push(body: #"{"aps":{"alert":"Hi","state-date":1767229200}}"#))
        #expect(verdict.warnings.map(\.message)
            == ["aps.state-date is not an Apple key; did you mean stale-date? The device ignores it as written"])
    }
}
