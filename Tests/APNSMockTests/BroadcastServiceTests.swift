import APNSCore
@testable import APNSMock
import APNSStore
import Foundation
import Testing

/// The broadcast service's own decisions: which push-to-start subscribes an activity, what a broadcast does on the
/// simulated device, and the channels file in the data directory.
@Suite struct BroadcastServiceTests {
    static let token = String(repeating: "ab", count: 32)

    static func service(dataDir: String? = nil) -> BroadcastService {
        BroadcastService(
            settings: BroadcastSettings(), device: LiveActivityDevice(),
            recorder: DeliveryRecorder(store: InMemoryDeliveryStore(), metrics: Metrics()), clock: TestClock(),
            dataDir: dataDir)
    }

    static func startBody(channel: String) -> [UInt8] {
        Array(#"{"aps":{"event":"start","timestamp":1767225600,"attributes-type":"Score","attributes":{},"content-state":{"score":0},"alert":{"title":"Go"},"input-push-channel":"\#(channel)"}}"#.utf8)
    }

    /// Starts an activity on the device as the push pipeline would, then lets the service look at the push.
    static func start(
        _ service: BroadcastService, channel: String, outcome: String? = nil, environment: APNsEnvironment = .development
    ) {
        let body = startBody(channel: channel)
        let result = service.device.receive(
            LiveActivityPush(deviceToken: token, topic: "com.example.app.push-type.liveactivity", apnsID: "START-1", payload: body),
            now: TestClock().now())
        let request = HTTPRequest(
            method: "POST", path: "/3/device/\(token)", headers: [HeaderField("apns-push-type", "liveactivity")], body: body,
            connection: ConnectionInfo(id: 1, remoteAddress: "test", localPort: 0, tls: nil, environment: environment))
        service.noteDevicePush(
            request,
            deviceOutcome: LiveActivityDeviceOutcome(
                code: outcome ?? result.outcome.rawValue, explanation: result.explanation),
            apnsID: "START-1")
    }

    static func channel(_ service: BroadcastService, environment: APNsEnvironment = .development) -> String {
        service.channels.create(
            bundleID: "com.example.app", environment: environment, policy: .mostRecentMessageStored, limit: 10, now: .zero)!.id
    }

    @Test func anAppliedPushToStartWithALiveChannelSubscribesTheActivity() {
        let service = Self.service()
        let id = Self.channel(service)
        Self.start(service, channel: id)
        #expect(service.channels.channel(id: id)?.subscribers == [Self.token])
    }

    /// The key spelled with an escape is the same key, so the byte check that spares most pushes a second parse
    /// must not turn it away.
    @Test func aStartNamingTheChannelThroughAnEscapeStillSubscribes() {
        let service = Self.service()
        let id = Self.channel(service)
        let body = Array(String(decoding: Self.startBody(channel: id), as: UTF8.self)
            .replacingOccurrences(of: "input-push-channel", with: #"input\u002dpush-channel"#).utf8)
        _ = service.device.receive(
            LiveActivityPush(deviceToken: Self.token, topic: "com.example.app.push-type.liveactivity", apnsID: "START-1",
                             payload: body),
            now: TestClock().now())
        let request = HTTPRequest(
            method: "POST", path: "/3/device/\(Self.token)", headers: [HeaderField("apns-push-type", "liveactivity")],
            body: body,
            connection: ConnectionInfo(id: 1, remoteAddress: "test", localPort: 0, tls: nil, environment: .development))
        service.noteDevicePush(
            request, deviceOutcome: LiveActivityDeviceOutcome(code: "applied", explanation: ""), apnsID: "START-1")
        #expect(service.channels.channel(id: id)?.subscribers == [Self.token])
    }

    @Test(arguments: [
        (#"{"aps":{"event":"update"}}"#, false),
        (#"{"aps":{"input-push-channel":"x"}}"#, true),
        (#"{"aps":{"input\u002dpush-channel":"x"}}"#, true),
        ("", false),
    ])
    func onlyABodyThatMayNameTheKeyIsParsedAgain(body: String, mayName: Bool) {
        #expect(BroadcastService.mayName(Array("input-push-channel".utf8), in: Array(body.utf8)) == mayName)
    }

    @Test(arguments: [
        ("a dropped start", "droppedStartWithoutAlert", APNsEnvironment.development, true),
        ("an unknown channel", nil, APNsEnvironment.development, false),
        ("a channel of the other environment", nil, APNsEnvironment.production, true),
    ] as [(String, String?, APNsEnvironment, Bool)])
    func nothingElseSubscribes(_ name: String, outcome: String?, environment: APNsEnvironment, knownChannel: Bool) {
        let service = Self.service()
        let id = Self.channel(service)
        Self.start(service, channel: knownChannel ? id : "dW5rbm93bg==", outcome: outcome, environment: environment)
        #expect(service.channels.channel(id: id)?.subscribers == [], "\(name)")
    }

    @Test func aBroadcastReachesEverySubscriberButAStartReachesNobody() throws {
        let service = Self.service()
        let id = Self.channel(service)
        Self.start(service, channel: id)
        let update = HTTPRequest(
            method: "POST", path: "/4/broadcasts/apps/com.example.app",
            headers: [HeaderField("apns-channel-id", id), HeaderField("apns-push-type", "liveactivity"),
                      HeaderField("apns-priority", "10"), HeaderField("apns-expiration", "0")],
            body: Array(#"{"aps":{"event":"update","timestamp":1767225601,"content-state":{"score":1}}}"#.utf8))
        let answer = try #require(service.decider.send(update, environment: .development, authenticator: nil, now: .zero))
        let fanOut = service.deliver(update, answer: answer, now: TestClock().now())
        #expect(fanOut.code == "broadcastFanOut")
        #expect(fanOut.deliveries.map(\.outcome) == ["applied"])
        #expect(service.device.activity(token: Self.token, now: TestClock().now())?.timeline.last?.apnsID == answer.requestID)

        var start = update
        start.body = Array(#"{"aps":{"event":"start","timestamp":1767225602,"content-state":{"score":2}}}"#.utf8)
        let startAnswer = try #require(service.decider.send(start, environment: .development, authenticator: nil, now: .zero))
        let refused = service.deliver(start, answer: startAnswer, now: TestClock().now())
        #expect(refused.code == "broadcastCannotStart" && refused.deliveries.isEmpty)
    }

    @Test func channelsSurviveARestartAndAnUnreadableFileIsMovedAside() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("broadcast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = Self.service(dataDir: directory.path)
        let id = Self.channel(first)
        Self.start(first, channel: id)
        let again = Self.service(dataDir: directory.path)
        #expect(again.channels.channel(id: id)?.subscribers == [Self.token])

        let file = directory.appendingPathComponent(BroadcastService.savedFileName)
        try Data("{not json".utf8).write(to: file)
        let fresh = Self.service(dataDir: directory.path)
        #expect(fresh.channels.allChannels.isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.path + ".unreadable"))
    }
}
