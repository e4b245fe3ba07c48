import APNSCore
import Foundation
import Testing
@testable import APNSCommandLine

/// What `apns-mock push` puts on the wire for its flags: path, topic per push type, headers, and the body.
@Suite struct PushRequestBuilderTests {
    static let now = Timestamp(secondsSinceEpoch: 1_767_225_600.75)
    static let token = "8096c2f1a3b4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e"

    static func push(_ configure: (inout PushNotification) -> Void = { _ in }) -> PushNotification {
        var push = PushNotification(deviceToken: token)
        push.bundleID = "com.example.app"
        configure(&push)
        return push
    }

    static func json(_ built: BuiltPush) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(built.request.body)) as? [String: Any])
    }

    /// The topic is the bundle ID plus the push type's suffix (A-SEND push-type table; docs/rules.md).
    @Test(arguments: [
        (PushType.alert, "com.example.app"), (.background, "com.example.app"),
        (.liveactivity, "com.example.app.push-type.liveactivity"), (.voip, "com.example.app.voip"),
        (.complication, "com.example.app.complication"), (.fileprovider, "com.example.app.pushkit.fileprovider"),
        (.location, "com.example.app.location-query"), (.pushtotalk, "com.example.app.voip-ptt"),
        (.widgets, "com.example.app.push-type.widgets"), (.controls, "com.example.app.push-type.controls"),
    ])
    func topicIsDerivedForThePushType(type: PushType, topic: String) throws {
        let built = try PushRequestBuilder.build(Self.push {
            $0.pushType = type
            if type == .liveactivity { $0.payload = Array(#"{"aps":{"event":"end","timestamp":1}}"#.utf8) }
        }, now: Self.now)
        #expect(built.topic == topic)
        #expect(built.request.value("apns-topic") == topic)
        #expect(built.request.value("apns-push-type") == type.rawValue)
        #expect(built.request.path == "/3/device/\(Self.token)")
        #expect(built.request.method == "POST")
    }

    @Test func explicitTopicIsTakenAsGiven() throws {
        let built = try PushRequestBuilder.build(Self.push { $0.pushType = .voip; $0.topic = "com.other.app" }, now: Self.now)
        #expect(built.topic == "com.other.app")
    }

    @Test func suffixIsNotDoubled() throws {
        let built = try PushRequestBuilder.build(Self.push { $0.pushType = .voip; $0.bundleID = "com.example.app.voip" }, now: Self.now)
        #expect(built.topic == "com.example.app.voip")
    }

    @Test func mdmNeedsAnExplicitTopic() {
        #expect(throws: PushBuildError.self) { try PushRequestBuilder.build(Self.push { $0.pushType = .mdm }, now: Self.now) }
    }

    @Test func optionalHeadersInOrder() throws {
        let built = try PushRequestBuilder.build(Self.push {
            $0.priority = 5
            $0.expiration = 0
            $0.collapseID = "score"
            $0.apnsID = "123e4567-e89b-12d3-a456-4266554400a0"
        }, now: Self.now)
        #expect(built.request.headers.map(\.name) == ["apns-topic", "apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id", "apns-id"])
        #expect(built.request.value("apns-priority") == "5")
        #expect(built.request.value("apns-expiration") == "0")
    }

    /// A-SEND: background pushes must use priority 5; an alert keeps APNs' default (no header).
    @Test func backgroundDefaultsToPriority5WithContentAvailable() throws {
        let background = try PushRequestBuilder.build(Self.push { $0.pushType = .background }, now: Self.now)
        #expect(background.request.value("apns-priority") == "5")
        #expect(String(decoding: background.request.body, as: UTF8.self) == #"{"aps":{"content-available":1}}"#)
        let alert = try PushRequestBuilder.build(Self.push(), now: Self.now)
        #expect(alert.request.value("apns-priority") == nil)
    }

    @Test func tokenPastedWithSpacesAndBrackets() throws {
        let built = try PushRequestBuilder.build(Self.push { $0.deviceToken = "<8096c2f1 a3b4d5e6>" }, now: Self.now)
        #expect(built.deviceToken == "8096c2f1a3b4d5e6")
    }

    @Test func alertFromFlags() throws {
        let built = try PushRequestBuilder.build(Self.push { $0.alertTitle = "Order \"A\""; $0.alertBody = "on its way" }, now: Self.now)
        #expect(String(decoding: built.request.body, as: UTF8.self) == #"{"aps":{"alert":{"title":"Order \"A\"","body":"on its way"}}}"#)
    }

    /// A Live Activity start from flags: timestamp filled in (whole seconds), then event, state, type, attributes,
    /// alert (A-LA).
    @Test func liveActivityStartFromFlags() throws {
        let built = try PushRequestBuilder.build(Self.push {
            $0.event = .start
            $0.attributesType = "DeliveryAttributes"
            $0.attributes = #"{"orderNumber":"A-1042"}"#
            $0.contentState = #" {"status":"preparing"} "#
            $0.alertTitle = "Order A-1042"
            $0.inputPushToken = true
            $0.staleDate = 1_767_229_200
            $0.relevanceScore = 75
        }, now: Self.now)
        #expect(built.pushType == .liveactivity)
        #expect(built.topic == "com.example.app.push-type.liveactivity")
        #expect(String(decoding: built.request.body, as: UTF8.self) ==
            #"{"aps":{"timestamp":1767225600,"event":"start","content-state":{"status":"preparing"},"attributes-type":"DeliveryAttributes","attributes":{"orderNumber":"A-1042"},"stale-date":1767229200,"relevance-score":75,"input-push-token":1,"alert":{"title":"Order A-1042"}}}"#)
    }

    @Test func givenTimestampIsKept() throws {
        let built = try PushRequestBuilder.build(Self.push { $0.event = .update; $0.contentState = "{}"; $0.timestamp = 42 }, now: Self.now)
        let aps = try #require(try Self.json(built)["aps"] as? [String: Any])
        #expect((aps["timestamp"] as? NSNumber)?.intValue == 42)
    }

    /// Every flag combination that APNs or the device would refuse is a usage error before anything is sent.
    @Test(arguments: [
        "start without attributes", "start without alert", "update without content-state",
        "content-state that is not an object", "content-state on an alert", "event on a voip push",
        "liveactivity without event", "input-push-token on an update", "stale-date without event", "priority 7",
        "negative expiration", "collapse id over 64 bytes", "apns-id not a UUID", "empty token", "token with a slash",
        "no bundle ID nor topic", "flags merged into a non-JSON payload", "mdm without payload",
    ])
    func refusesContradictoryFlags(name: String) {
        #expect(throws: PushBuildError.self, "\(name)") { try PushRequestBuilder.build(Self.push { Self.contradiction(name, &$0) }, now: Self.now) }
    }

    static func contradiction(_ name: String, _ p: inout PushNotification) {
        switch name {
        case "start without attributes": p.event = .start; p.contentState = "{}"; p.alertTitle = "x"; p.attributesType = "T"
        case "start without alert": p.event = .start; p.contentState = "{}"; p.attributes = "{}"; p.attributesType = "T"
        case "update without content-state": p.event = .update
        case "content-state that is not an object": p.event = .update; p.contentState = "[1]"
        case "content-state on an alert": p.pushType = .alert; p.contentState = "{}"
        case "event on a voip push": p.pushType = .voip; p.event = .end
        case "liveactivity without event": p.pushType = .liveactivity
        case "input-push-token on an update": p.event = .update; p.contentState = "{}"; p.inputPushToken = true
        case "stale-date without event": p.staleDate = 1
        case "priority 7": p.priority = 7
        case "negative expiration": p.expiration = -1
        case "collapse id over 64 bytes": p.collapseID = String(repeating: "é", count: 33)
        case "apns-id not a UUID": p.apnsID = "123"
        case "empty token": p.deviceToken = ""
        case "token with a slash": p.deviceToken = "ab/cd"
        case "no bundle ID nor topic": p.bundleID = nil
        case "flags merged into a non-JSON payload": p.payload = Array("hello".utf8); p.alertBody = "x"
        case "mdm without payload": p.pushType = .mdm; p.topic = "com.apple.mgmt.X"
        default: Issue.record("no case \(name)")
        }
    }

    @Test func payloadFileAloneIsSentByteForByte() throws {
        let text = "{ \"aps\" : {\"alert\":\"x\"}, \"custom\": 1.50 }"
        let built = try PushRequestBuilder.build(Self.push { $0.payload = Array(text.utf8) }, now: Self.now)
        #expect(built.request.body == Array(text.utf8))
        let broken = try PushRequestBuilder.build(Self.push { $0.payload = Array("not json".utf8) }, now: Self.now)
        #expect(broken.request.body == Array("not json".utf8))
    }

    @Test func flagsAreMergedIntoPayloadFile() throws {
        let built = try PushRequestBuilder.build(Self.push {
            $0.payload = Array(#"{"aps":{"event":"update","content-state":{"a":1}},"custom":true}"#.utf8)
            $0.pushType = .liveactivity
            $0.relevanceScore = 0.5
        }, now: Self.now)
        let object = try Self.json(built)
        let aps = try #require(object["aps"] as? [String: Any])
        #expect((aps["relevance-score"] as? NSNumber)?.doubleValue == 0.5)
        #expect((aps["timestamp"] as? NSNumber)?.intValue == 1_767_225_600)
        #expect(aps["event"] as? String == "update")
        #expect(object["custom"] != nil)
    }

    @Test(arguments: [(PushType.widgets, #"{"aps":{"content-changed":true}}"#), (.voip, #"{"aps":{}}"#), (.alert, #"{"aps":{"alert":"Hello from apns-mock"}}"#)])
    func defaultBodies(type: PushType, body: String) throws {
        let built = try PushRequestBuilder.build(Self.push { $0.pushType = type }, now: Self.now)
        #expect(String(decoding: built.request.body, as: UTF8.self) == body)
    }
}
