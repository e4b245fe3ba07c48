@testable import APNSCore
import Testing


/// A push the device's `admit` refuses leaves no trace: a token seen for the first time gets no record (not even
/// one the token table does not name), a known token keeps its record and timeline, and the tokens that come after
/// land in their own slots.
@Suite struct RefusedPushTests {
    typealias P = TestPayloads

    static let known = String(repeating: "ab", count: 32)
    static let new = String(repeating: "cd", count: 32)

    static func push(_ token: String, id: String, offset: Int) -> LiveActivityPush {
        LiveActivityPush(
            deviceToken: token, topic: "com.example.app.push-type.liveactivity", priority: 5, apnsID: id,
            payload: Array(P.update(timestamp: P.nowSeconds + offset).utf8))
    }

    @Test func aRefusedPushLeavesNoTrace() {
        let device = LiveActivityDevice(configuration: LiveActivityConfiguration(schemas: [P.delivery]))
        _ = device.receive(Self.push(Self.known, id: "applied-1", offset: 0), now: P.now)

        for (token, id) in [(Self.new, "refused-new"), (Self.known, "refused-known")] {
            let reception = device.receive(Self.push(token, id: id, offset: 1), now: P.now.adding(seconds: 1)) { _ in
                false
            }
            guard case .refused = reception else {
                Issue.record("\(id) was not refused")
                continue
            }
        }
        #expect(device.state.withLock { [$0.tokens.count, $0.table.count, $0.timelineEntries] } == [1, 1, 1])
        #expect(device.activity(token: Self.new, now: P.now.adding(seconds: 1)) == nil)
        #expect(device.activity(token: Self.known, now: P.now.adding(seconds: 1))?.timeline.map(\.apnsID) == ["applied-1"])

        _ = device.receive(Self.push(Self.new, id: "applied-2", offset: 2), now: P.now.adding(seconds: 2))
        _ = device.receive(Self.push(Self.known, id: "applied-3", offset: 3), now: P.now.adding(seconds: 3))
        let later = P.now.adding(seconds: 3)
        #expect(device.allActivities(now: later).map(\.deviceToken) == [Self.known, Self.new])
        #expect(device.activity(token: Self.new, now: later)?.timeline.map(\.apnsID) == ["applied-2"])
        #expect(device.activity(token: Self.known, now: later)?.timeline.map(\.apnsID) == ["applied-1", "applied-3"])
    }
}

/// The content-state an update replaces is handed back in the prepared push, so its last reference goes (and the
/// value is freed) after the device's lock is released; the activity shows the new one.
@Suite struct PreviousContentStateTests {
    typealias P = TestPayloads

    @Test func theReplacedContentStateLeavesWithThePreparedPush() throws {
        var state = LiveActivityDeviceState(configuration: LiveActivityConfiguration(schemas: [P.delivery]))
        let token = String(repeating: "ab", count: 32)
        func push(_ progress: String, offset: Int) -> LiveActivityPush {
            LiveActivityPush(
                deviceToken: token, topic: "com.example.app.push-type.liveactivity", priority: 5, apnsID: "id-\(offset)",
                payload: Array(P.update(
                    timestamp: P.nowSeconds + offset, state: #"{"progress":\#(progress),"eta":\#(P.etaReference)}"#).utf8))
        }
        var first = PreparedPush(push("0.25", offset: 0), now: P.now, configuration: state.configuration)
        _ = state.receive(push("0.25", offset: 0), taking: &first, now: P.now) { _ in true }
        #expect(first.previousContentState == nil, "the token showed no activity before")
        let shown = try #require(state.activity(token: token, now: P.now)?.contentState)

        let later = P.now.adding(seconds: 1)
        var second = PreparedPush(push("0.75", offset: 1), now: later, configuration: state.configuration)
        _ = state.receive(push("0.75", offset: 1), taking: &second, now: later) { _ in true }
        #expect(second.previousContentState == shown)
        #expect(state.activity(token: token, now: later)?.contentState?["progress"] == .number("0.75"))
    }
}
