import APNSCore
import CoreTestSupport
import Testing

/// `apns-topic` must look like a bundle ID (letters, digits, `-`, `.`, no empty part), else `400 BadTopic`; the
/// byte-level check gives the same answers as the rule's definition.
@Suite struct TopicSyntaxTests {
    @Test(arguments: [
        ("com.example.app", false), ("com.example-app.App2", false), ("a", false), ("0-9.A-Z", false),
        ("com..example", true), (".com.example", true), ("com.example.", true), ("com example", true),
        ("com.exämple", true), ("com_example", true), ("com.example/app", true), ("com.example\u{0}", true),
    ])
    func topicMustLookLikeABundleID(topic: String, isBad: Bool) {
        let accepts = TableAuthenticator(.accepted(TableAuthenticator.sender, warnings: []))
        let verdict = PushRequests.validate(PushRequests.push(topic: topic), authenticator: accepts)
        #expect((verdict.reason == .badTopic) == isBad)
    }
}
