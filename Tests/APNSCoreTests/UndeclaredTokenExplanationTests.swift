import APNSCore
import Testing

/// Declaring one token turns every other token into BadDeviceToken; the explanation must say a declaration caused
/// it and how to change it, or a newcomer debugs their token instead of their configuration.
@Suite struct UndeclaredTokenExplanationTests {
    @Test func theExplanationBlamesTheDeclarationAndNamesTheSetting() {
        let tokens = DeviceTokenRegistry([DeclaredDeviceToken(token: String(repeating: "cd", count: 32), bundleID: "com.example.app")])
        let verdict = PushRequests.validate(PushRequests.push(), tokens: tokens)
        #expect(verdict.reason == .badDeviceToken)
        let explanation = verdict.explanation ?? ""
        #expect(explanation.contains("declaring any device token makes every undeclared one BadDeviceToken"))
        #expect(explanation.contains(#""undeclaredTokens": "warn""#))
        #expect(explanation.contains("/api/config/tokens"))
    }
}
