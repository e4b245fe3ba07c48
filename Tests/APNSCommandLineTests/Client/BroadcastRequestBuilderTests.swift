import APNSCore
import Foundation
import Testing

@testable import APNSCommandLine

/// `apns-mock push --channel`: the broadcast send request (A-BSEND).
@Suite struct BroadcastRequestBuilderTests {
    static func push(_ edit: (inout PushNotification) -> Void = { _ in }) -> PushNotification {
        var push = PushNotification(deviceToken: "")
        push.channelID = "dHN0LXNyY2gtY2hubA=="
        push.bundleID = "com.example.app"
        push.event = .update
        push.contentState = #"{"score":1}"#
        edit(&push)
        return push
    }

    @Test func aChannelPushIsABroadcastWithTheRequiredHeaders() throws {
        let built = try PushRequestBuilder.build(Self.push(), now: Timestamp(secondsSinceEpoch: 1_767_225_600))
        #expect(built.request.path == "/4/broadcasts/apps/com.example.app")
        #expect(built.request.value("apns-channel-id") == "dHN0LXNyY2gtY2hubA==")
        #expect(built.request.value("apns-push-type") == "liveactivity")
        #expect(built.request.value("apns-priority") == "10")
        #expect(built.request.value("apns-expiration") == "0")
        #expect(built.request.value("apns-topic") == nil)
        let body = String(decoding: built.request.body, as: UTF8.self)
        #expect(body.contains(#""event":"update""#))
        #expect(body.contains(#""timestamp":1767225600"#))
    }

    @Test(arguments: [
        (Optional("com.example.app.push-type.liveactivity"), "/4/broadcasts/apps/com.example.app"),
        (Optional("com.example.app"), "/4/broadcasts/apps/com.example.app"),
    ])
    func theBundleIDLosesItsPushTypeSuffix(topic: String?, path: String) throws {
        let built = try PushRequestBuilder.build(Self.push { $0.bundleID = nil; $0.topic = topic }, now: .zero)
        #expect(built.request.path == path)
    }

    @Test func givenValuesGoOutAndContradictionsAreRefused() throws {
        let built = try PushRequestBuilder.build(
            Self.push { $0.priority = 5; $0.expiration = 4_102_444_800; $0.apnsID = "123e4567-e89b-12d3-a456-4266554400a0" },
            now: .zero)
        #expect(built.request.value("apns-priority") == "5")
        #expect(built.request.value("apns-expiration") == "4102444800")
        #expect(built.request.value("apns-request-id") == "123e4567-e89b-12d3-a456-4266554400a0")
        #expect(throws: PushBuildError.self) { try PushRequestBuilder.build(Self.push { $0.pushType = .alert }, now: .zero) }
        #expect(throws: PushBuildError.self) { try PushRequestBuilder.build(Self.push { $0.channelID = "" }, now: .zero) }
        #expect(throws: PushBuildError.self) { try PushRequestBuilder.build(Self.push { $0.apnsID = "nope" }, now: .zero) }
    }
}
