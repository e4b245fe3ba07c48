import APNSJSON
import APNSCore
import Foundation
import Testing

/// The simulated device: every outcome, driven by pushes and a test clock.
@Suite struct LiveActivityDeviceTests {
    typealias P = TestPayloads

    static let token = String(repeating: "ab", count: 80)
    static let pushToStart = String(repeating: "cd", count: 80)
    static let issued = String(repeating: "ef", count: 80)
    static let topic = "com.example.app.push-type.liveactivity"

    struct Step: Sendable {
        var advance: Double = 0
        var token: String = LiveActivityDeviceTests.token
        var priority = 10
        var payload: String
        var expect: LiveActivityOutcome
        var phrase: String = ""
    }

    struct Scenario: Sendable, CustomStringConvertible {
        var name: String
        var configuration = LiveActivityConfiguration(schemas: [P.delivery, P.workout])
        var steps: [Step]
        /// Expected state of `token`'s activity after the last step.
        var finalState: ActivityPhase?
        var description: String { name }
    }

    static func t(_ offset: Int) -> Int { P.nowSeconds + offset }

    static let scenarios: [Scenario] = [
        Scenario(name: "push-to-start then update", steps: [
            Step(payload: P.start(), expect: .applied, phrase: "started a DeliveryAttributes activity"),
            Step(advance: 60, payload: P.update(timestamp: t(60)), expect: .applied),
        ], finalState: .active),
        Scenario(name: "start without alert", steps: [
            Step(payload: P.start(alert: false), expect: .droppedStartWithoutAlert),
        ], finalState: nil),
        Scenario(name: "start of a type the app does not have", steps: [
            Step(payload: P.start(type: "Delivery"), expect: .droppedUnknownAttributesType, phrase: "known: DeliveryAttributes"),
        ]),
        Scenario(name: "start whose attributes do not decode", steps: [
            Step(payload: P.start(attributes: #"{"orderID":5}"#), expect: .droppedUndecodableAttributes,
                 phrase: "attributes.orderID is a number"),
        ]),
        Scenario(name: "start whose content-state does not decode", steps: [
            Step(payload: P.start(state: #"{"eta":0}"#), expect: .droppedUndecodableContentState, phrase: "missing key \"progress\""),
        ]),
        Scenario(name: "update missing a key is dropped and state kept", steps: [
            Step(payload: P.start(), expect: .applied),
            Step(advance: 10, payload: P.update(timestamp: t(10), state: #"{"eta":0}"#), expect: .droppedUndecodableContentState,
                 phrase: "missing key \"progress\" (Double) at content-state"),
        ], finalState: .active),
        Scenario(name: "older timestamp ignored", steps: [
            Step(payload: P.update(timestamp: t(100)), expect: .applied),
            Step(advance: 5, payload: P.update(timestamp: t(50)), expect: .ignoredOlderTimestamp,
                 phrase: "older than the last applied update (\(t(100))); send the current time in seconds"),
        ], finalState: .active),
        Scenario(name: "a millisecond timestamp poisons later correct ones", steps: [
            Step(payload: P.update(timestamp: t(0) * 1000), expect: .applied),
            Step(advance: 30, payload: P.update(timestamp: t(30)), expect: .ignoredOlderTimestamp,
                 phrase: "Sending seconds now does not fix it: end this activity (an end push, or end it in the app), start a new one"),
            Step(advance: 30, payload: P.end(timestamp: t(60)), expect: .applied),
        ]),
        Scenario(name: "end with an older timestamp still applies", steps: [
            Step(payload: P.update(timestamp: t(100)), expect: .applied),
            Step(advance: 1, payload: P.end(timestamp: t(50)), expect: .applied),
        ], finalState: .ended),
        Scenario(name: "pushes after the end are ignored", steps: [
            Step(payload: P.start(), expect: .applied),
            Step(advance: 10, payload: P.end(timestamp: t(10)), expect: .applied, phrase: "stays on the Lock Screen until"),
            Step(advance: 10, payload: P.update(timestamp: t(20)), expect: .ignoredAlreadyEnded),
        ], finalState: .ended),
        Scenario(name: "end with past dismissal-date removes it", steps: [
            Step(payload: P.start(), expect: .applied),
            Step(advance: 10, payload: P.end(timestamp: t(10), extra: #","dismissal-date":\#(t(0))"#), expect: .dismissed),
            Step(advance: 1, payload: P.update(timestamp: t(11)), expect: .ignoredAlreadyEnded),
        ], finalState: .dismissed),
        Scenario(name: "default dismissal four hours after end", steps: [
            Step(payload: P.start(), expect: .applied),
            Step(advance: 10, payload: P.end(timestamp: t(10)), expect: .applied),
            Step(advance: 4 * 3600, payload: P.update(timestamp: t(20)), expect: .ignoredAlreadyEnded, phrase: "dismissed"),
        ], finalState: .dismissed),
        Scenario(name: "eight-hour limit ends the activity", steps: [
            Step(payload: P.start(), expect: .applied),
            Step(advance: 8 * 3600, payload: P.update(timestamp: t(8 * 3600)), expect: .ignoredAlreadyEnded, phrase: "8-hour limit"),
        ], finalState: .ended),
        Scenario(name: "twelve-hour limit removes it", steps: [
            Step(payload: P.start(), expect: .applied),
            Step(advance: 12 * 3600, payload: P.update(timestamp: t(12 * 3600)), expect: .ignoredAlreadyEnded),
        ], finalState: .dismissed),
        Scenario(name: "stale-date passes, next update revives", steps: [
            Step(payload: P.update(timestamp: t(0), extra: #","stale-date":\#(t(60))"#), expect: .applied),
            Step(advance: 120, payload: P.update(timestamp: t(120)), expect: .applied),
        ], finalState: .active),
        Scenario(name: "past stale-date makes it stale at once", steps: [
            Step(payload: P.update(timestamp: t(0), extra: #","stale-date":\#(t(-60))"#), expect: .applied),
        ], finalState: .stale),
        Scenario(name: "invalid payload", steps: [
            Step(payload: #"{"aps":{"timestamp":1767225600}}"#, expect: .droppedInvalidPayload, phrase: "aps.event is missing"),
            Step(payload: "nope", expect: .droppedInvalidPayload, phrase: "not JSON"),
        ]),
        Scenario(
            name: "priority-10 budget throttles, priority 5 does not, window slides",
            configuration: LiveActivityConfiguration(schemas: [P.delivery], priority10BudgetPerHour: 2),
            steps: [
                Step(payload: P.update(timestamp: t(0)), expect: .applied),
                Step(advance: 60, payload: P.update(timestamp: t(60)), expect: .applied),
                Step(advance: 60, payload: P.update(timestamp: t(120)), expect: .throttled, phrase: "budget of 2/h"),
                Step(advance: 60, priority: 5, payload: P.update(timestamp: t(180)), expect: .applied),
                Step(advance: 3600 - 180 + 1, payload: P.update(timestamp: t(3601)), expect: .applied),
            ], finalState: .active),
        Scenario(
            name: "NSSupportsLiveActivitiesFrequentUpdates raises the budget",
            configuration: LiveActivityConfiguration(
                schemas: [P.delivery], priority10BudgetPerHour: 1, frequentUpdatesBudgetPerHour: 3, supportsFrequentUpdates: true),
            steps: [
                Step(payload: P.update(timestamp: t(0)), expect: .applied),
                Step(advance: 1, payload: P.update(timestamp: t(1)), expect: .applied),
                Step(advance: 1, payload: P.update(timestamp: t(2)), expect: .applied),
                Step(advance: 1, payload: P.update(timestamp: t(3)), expect: .throttled, phrase: "NSSupportsLiveActivitiesFrequentUpdates on"),
            ]),
        Scenario(
            name: "push-to-start issues an update token; the start token takes no updates",
            configuration: LiveActivityConfiguration(schemas: [P.delivery], issuesUpdateTokens: true),
            steps: [
                Step(token: pushToStart, payload: P.start(), expect: .applied, phrase: issued),
                Step(advance: 5, token: pushToStart, payload: P.update(timestamp: t(5)), expect: .ignoredNoActivity,
                     phrase: "latest: \(issued)"),
                Step(advance: 5, token: issued, payload: P.update(timestamp: t(10)), expect: .applied),
                Step(advance: 5, token: issued, payload: P.end(timestamp: t(15)), expect: .applied),
            ]),
        Scenario(name: "update for an activity started in the app is adopted", steps: [
            Step(payload: P.update(state: #"{"heartRate":90}"#), expect: .applied, phrase: "WorkoutAttributes"),
        ], finalState: .active),
    ]

    @Test(arguments: scenarios)
    func followsTheDeviceRules(_ scenario: Scenario) throws {
        let clock = TestClock(P.now)
        let device = LiveActivityDevice(configuration: scenario.configuration, makeUpdateToken: { Self.issued })
        for (index, step) in scenario.steps.enumerated() {
            clock.advance(seconds: step.advance)
            let push = LiveActivityPush(deviceToken: step.token, topic: Self.topic, priority: step.priority,
                                        apnsID: "ID-\(index)", payload: Array(step.payload.utf8))
            let result = device.receive(push, now: clock.now())
            #expect(result.outcome == step.expect, "step \(index): \(result.explanation)")
            if !step.phrase.isEmpty {
                #expect(result.explanation.contains(step.phrase), "step \(index): \(result.explanation)")
            }
            #expect(result.isDeviceDrop == step.expect.isDeviceDrop)
        }
        let snapshot = device.activity(token: Self.token, now: clock.now())
        if let expected = scenario.finalState {
            #expect(snapshot?.state == expected, "\(snapshot?.stateNote ?? "")")
        }
    }

    @Test func scenariosCoverEveryOutcome() {
        let covered = Set(Self.scenarios.flatMap { $0.steps.map(\.expect) })
        #expect(covered == Set(LiveActivityOutcome.allCases))
    }

    @Test(arguments: LiveActivityOutcome.allCases)
    func onlyDropsHaveAStrictModeReason(_ outcome: LiveActivityOutcome) {
        if outcome.isDeviceDrop {
            #expect(outcome.mockStrictReason?.hasPrefix("MockDevice") == true)
        } else {
            #expect(outcome.mockStrictReason == nil)
        }
    }

    @Test func strictReasonsAreDistinct() {
        let reasons = LiveActivityOutcome.allCases.compactMap(\.mockStrictReason)
        #expect(Set(reasons).count == reasons.count)
    }

    @Test func snapshotKeepsStateAndTimeline() throws {
        let device = LiveActivityDevice(configuration: LiveActivityConfiguration(schemas: [P.delivery]))
        _ = device.receive(push(P.start(), id: "A"), now: P.now)
        _ = device.receive(push(P.update(timestamp: Self.t(30), state: #"{"eta":0}"#), id: "B"), now: P.now.adding(seconds: 30))
        let snapshot = try #require(device.activity(token: Self.token.uppercased(), now: P.now.adding(seconds: 31)))
        #expect(snapshot.attributesType == "DeliveryAttributes")
        #expect(snapshot.attributes == .object([JSONMember("orderID", .string("A1"))]))
        #expect(snapshot.contentState == (try JSONParser.parse(P.state)))
        #expect(snapshot.lastAppliedTimestamp == Double(P.nowSeconds))
        #expect(snapshot.startSeen)
        #expect(snapshot.timeline.map(\.apnsID) == ["A", "B"])
        #expect(snapshot.timeline.map(\.outcome) == [.applied, .droppedUndecodableContentState])
        #expect(snapshot.timeline.map(\.event) == ["start", "update"])
        #expect(snapshot.priority10PushesInLastHour == 1)
    }

    @Test func pushToStartTimelineAppearsOnBothTokens() throws {
        let device = LiveActivityDevice(
            configuration: LiveActivityConfiguration(schemas: [P.delivery], issuesUpdateTokens: true))
        let result = device.receive(push(P.start(), token: Self.pushToStart, id: "S"), now: P.now)
        let issued = try #require(result.issuedUpdateToken)
        #expect(issued.count == 160 && issued.allSatisfy(\.isHexDigit))
        let starter = try #require(device.activity(token: Self.pushToStart, now: P.now))
        #expect(starter.role == .pushToStart && starter.issuedUpdateTokens == [issued] && starter.state == nil)
        let activity = try #require(device.activity(token: issued, now: P.now))
        #expect(activity.startedByPushToStartToken == Self.pushToStart)
        #expect(activity.timeline.map(\.apnsID) == ["S"])
        #expect(result.activityToken == issued)
    }

    @Test func snapshotsEncodeForTheAdminAPI() throws {
        let device = LiveActivityDevice(configuration: LiveActivityConfiguration(schemas: [P.delivery]))
        _ = device.receive(push(P.start(), id: "A"), now: P.now)
        let all = device.allActivities(now: P.now)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(all)
        // JSON objects carry no key order, so compare the re-encoded text with sorted keys.
        let decoded = try JSONDecoder().decode([ActivitySnapshot].self, from: data)
        #expect(try encoder.encode(decoded) == data)
        #expect(decoded.first?.timeline == all.first?.timeline)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""orderID":"A1""#))
    }

    @Test func timelineKeepsOnlyTheNewestEntries() throws {
        let device = LiveActivityDevice(configuration: LiveActivityConfiguration(
            schemas: [P.delivery], priority10BudgetPerHour: 100, timelineLimit: 3))
        for index in 0..<5 {
            _ = device.receive(push(P.update(timestamp: Self.t(index)), id: "\(index)"), now: P.now.adding(seconds: Double(index)))
        }
        let snapshot = try #require(device.activity(token: Self.token, now: P.now.adding(seconds: 5)))
        #expect(snapshot.timeline.map(\.apnsID) == ["2", "3", "4"])
    }

    @Test func resetForgetsEverything() {
        let device = LiveActivityDevice()
        _ = device.receive(push(P.update(), id: "A"), now: P.now)
        #expect(device.allActivities(now: P.now).count == 1)
        device.reset()
        #expect(device.allActivities(now: P.now).isEmpty)
    }

    @Test func concurrentPushesAreAllRecorded() async {
        let device = LiveActivityDevice(configuration: LiveActivityConfiguration(
            schemas: [P.delivery], priority10BudgetPerHour: 1000))
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let token = String(repeating: String(format: "%02x", worker), count: 80)
                    for index in 0..<50 {
                        _ = device.receive(push(P.update(timestamp: Self.t(index)), token: token, id: "\(index)"),
                                           now: P.now.adding(seconds: Double(index)))
                    }
                }
            }
        }
        let all = device.allActivities(now: P.now.adding(seconds: 60))
        #expect(all.count == 8)
        #expect(all.allSatisfy { $0.timeline.count == 50 && $0.timeline.allSatisfy { $0.outcome == .applied } })
    }
}

private func push(_ payload: String, token: String = LiveActivityDeviceTests.token, id: String) -> LiveActivityPush {
    LiveActivityPush(deviceToken: token, topic: LiveActivityDeviceTests.topic, apnsID: id, payload: Array(payload.utf8))
}
