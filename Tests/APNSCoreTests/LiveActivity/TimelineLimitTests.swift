import APNSCore
import Foundation
import Testing

/// A token's timeline keeps the newest `timelineLimit` entries, oldest first, however many pushes came before and
/// when the limit changes while the server runs; a saved and restored device keeps the same order.
@Suite struct TimelineLimitTests {
    typealias P = TestPayloads
    static let token = String(repeating: "ab", count: 80)
    static let topic = "com.example.app.push-type.liveactivity"

    struct Case: CustomTestStringConvertible, Sendable {
        var limit: Int
        var pushes: Int
        /// A new limit set after `pushes`, and the pushes sent after it.
        var newLimit: Int?
        var morePushes = 0
        var expected: [String]
        var testDescription: String { "limit \(limit), \(pushes) pushes, then limit \(newLimit.map(String.init) ?? "same"), \(morePushes) more" }
    }

    static let cases: [Case] = [
        Case(limit: 3, pushes: 2, expected: ["0", "1"]),
        Case(limit: 3, pushes: 3, expected: ["0", "1", "2"]),
        Case(limit: 3, pushes: 4, expected: ["1", "2", "3"]),
        Case(limit: 3, pushes: 10, expected: ["7", "8", "9"]),
        Case(limit: 1, pushes: 5, expected: ["4"]),
        Case(limit: 0, pushes: 2, expected: ["1"]),
        Case(limit: 3, pushes: 5, newLimit: 5, morePushes: 1, expected: ["2", "3", "4", "5"]),
        Case(limit: 3, pushes: 5, newLimit: 5, morePushes: 4, expected: ["4", "5", "6", "7", "8"]),
        Case(limit: 5, pushes: 7, newLimit: 2, morePushes: 1, expected: ["6", "7"]),
        Case(limit: 5, pushes: 7, newLimit: 2, morePushes: 3, expected: ["8", "9"]),
    ]

    static func send(_ device: LiveActivityDevice, index: Int) {
        let push = LiveActivityPush(
            deviceToken: token, topic: topic, priority: 5, apnsID: "\(index)",
            payload: Array(P.update(timestamp: P.nowSeconds + index).utf8))
        _ = device.receive(push, now: P.now.adding(seconds: Double(index)))
    }

    @Test(arguments: cases) func timelineKeepsTheNewestEntriesInOrder(_ check: Case) throws {
        let device = LiveActivityDevice(configuration: LiveActivityConfiguration(
            schemas: [P.delivery], timelineLimit: check.limit))
        for index in 0..<check.pushes { Self.send(device, index: index) }
        if let newLimit = check.newLimit {
            device.configuration.timelineLimit = newLimit
            for index in check.pushes..<(check.pushes + check.morePushes) { Self.send(device, index: index) }
        }
        let snapshot = try #require(device.activity(token: Self.token, now: P.now.adding(seconds: 60)))
        #expect(snapshot.timeline.map(\.apnsID) == check.expected)
    }

    @Test func aWrappedTimelineIsSavedAndRestoredOldestFirst() throws {
        let configuration = LiveActivityConfiguration(schemas: [P.delivery], timelineLimit: 3)
        let device = LiveActivityDevice(configuration: configuration)
        for index in 0..<5 { Self.send(device, index: index) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("la-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try device.save(to: path)

        let restarted = LiveActivityDevice(configuration: configuration)
        #expect(try restarted.restore(from: path) == 1)
        Self.send(restarted, index: 5)
        let snapshot = try #require(restarted.activity(token: Self.token, now: P.now.adding(seconds: 60)))
        #expect(snapshot.timeline.map(\.apnsID) == ["3", "4", "5"])
    }
}
