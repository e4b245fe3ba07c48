import APNSCore
import Foundation
import Testing
@testable import APNSMock

/// `apns-mock lint`: the server's rules and the Live Activity device, offline. One row per payload: what APNs
/// would answer, what the device would do, and whether lint passes (exit 0) or fails (exit 1).
@Suite struct PayloadLinterTests {
    static let now = Timestamp(secondsSinceEpoch: 1_767_225_600)
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Conformance/scenarios/DeliveryAttributes.swift").path

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var payload: String
        var pushType: PushType?
        var topic = "com.example.app"
        var priority: Int?
        var event: String?
        var attributesType: String?
        var status: Int
        var reason: String?
        var device: String?
        var warning: String?
        var passes: Bool
        var testDescription: String { name }
    }

    static let start = #"{"aps":{"event":"start","timestamp":1767225600,"attributes-type":"DeliveryAttributes","attributes":{"orderNumber":"A-1"},"content-state":{"status":"preparing","minutesLeft":20},"alert":{"title":"Order"}}}"#

    static let rows: [Row] = [
        Row(name: "plain alert", payload: #"{"aps":{"alert":"hi"}}"#, pushType: .alert, status: 200, passes: true),
        Row(name: "not JSON", payload: "hello", pushType: .alert, status: 400, reason: "BadRequestPayload", passes: false),
        Row(name: "background at priority 10 is a warning only", payload: #"{"aps":{"content-available":1}}"#,
            pushType: .background, priority: 10, status: 200, warning: "background-priority-10", passes: true),
        Row(name: "Live Activity to the bare bundle ID", payload: start, pushType: .liveactivity, status: 400,
            reason: "DeviceTokenNotForTopic", passes: false),
        Row(name: "complete start", payload: start, pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity",
            status: 200, device: "applied", passes: true),
        Row(name: "start without alert", payload: #"{"aps":{"event":"start","timestamp":1767225600,"attributes-type":"DeliveryAttributes","attributes":{"orderNumber":"A-1"},"content-state":{"status":"x","minutesLeft":1}}}"#,
            pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity", status: 200,
            device: "droppedStartWithoutAlert", passes: false),
        Row(name: "start of an unknown type", payload: start.replacingOccurrences(of: "DeliveryAttributes", with: "PizzaAttributes"),
            pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity", status: 200,
            device: "droppedUnknownAttributesType", passes: false),
        Row(name: "update whose content-state does not decode", payload: #"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"status":"x","minutesLeft":"nine"}}}"#,
            pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity", attributesType: "DeliveryAttributes",
            status: 200, device: "droppedUndecodableContentState", warning: "la-content-state-invalid", passes: false),
        Row(name: "update that decodes", payload: #"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"status":"x","minutesLeft":9}}}"#,
            pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity", attributesType: "DeliveryAttributes",
            status: 200, device: "applied", passes: true),
        Row(name: "update that is not the event expected", payload: #"{"aps":{"event":"update","timestamp":1767225600,"content-state":{"status":"x","minutesLeft":9}}}"#,
            pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity", event: "end", status: 200,
            device: "applied", passes: false),
        Row(name: "payload over 4 KB", payload: #"{"aps":{},"p":""# + String(repeating: "a", count: 4100) + #""}"#,
            pushType: .alert, status: 413, reason: "PayloadTooLarge", passes: false),
        Row(name: "bad priority", payload: #"{"aps":{"alert":"hi"}}"#, pushType: .alert, priority: 7, status: 400,
            reason: "BadPriority", passes: false),
    ]

    @Test(arguments: rows)
    func judgesLikeTheServer(row: Row) throws {
        var input = PayloadLinter.Input(
            payload: Array(row.payload.utf8), pushType: row.pushType, topic: row.topic,
            deviceToken: String(repeating: "ab", count: 32), now: Self.now)
        input.priority = row.priority
        input.expectedEvent = row.event
        input.attributesType = row.attributesType
        var settings = MockConfiguration.LiveActivitySettings()
        settings.sources = [Self.source]
        let result = try PayloadLinter.lint(input, liveActivities: settings)
        #expect(result.status == row.status)
        #expect(result.reason == row.reason)
        #expect(result.deviceOutcome == row.device)
        if let warning = row.warning { #expect(result.warnings.map(\.code).contains(warning), "\(result.warnings)") }
        #expect(result.passes == row.passes, "\(result)")
        #expect(result.schemaTypes == ["DeliveryAttributes"])
    }

    @Test func unknownAttributesTypeFlagIsAUsageError() {
        var input = PayloadLinter.Input(
            payload: Array(#"{"aps":{"event":"end","timestamp":1}}"#.utf8), pushType: .liveactivity,
            topic: "com.example.app.push-type.liveactivity", deviceToken: "abab", now: Self.now)
        input.attributesType = "NoSuchAttributes"
        var settings = MockConfiguration.LiveActivitySettings()
        settings.sources = [Self.source]
        #expect(throws: PayloadLinter.Failure.self) { try PayloadLinter.lint(input, liveActivities: settings) }
    }
}
