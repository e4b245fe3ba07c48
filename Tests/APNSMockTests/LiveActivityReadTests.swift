@testable import APNSMock
import APNSCore
import APNSJSON
import Foundation
import HTTPContract
import Testing

/// `GET /api/activities` reads a page, never the whole device, and never holds the device while it serializes.
@Suite struct LiveActivityReadTests {
    static let now = Timestamp(secondsSinceEpoch: 1_767_225_600)
    static let topic = "com.example.app.push-type.liveactivity"

    static func push(_ index: Int, id: String = "") -> LiveActivityPush {
        let payload = #"{"aps":{"timestamp":1767225600,"event":"update","content-state":{"n":\#(index)}}}"#
        return LiveActivityPush(
            deviceToken: token(index), topic: topic, priority: 5, apnsID: id.isEmpty ? "ID-\(index)" : id,
            payload: Array(payload.utf8))
    }

    static func token(_ index: Int) -> String { String(format: "%064x", index) }

    static func device(tokens: Int) -> LiveActivityDevice {
        let device = LiveActivityDevice()
        for index in 0..<tokens { _ = device.receive(push(index), now: now) }
        return device
    }

    static func list(_ service: LiveActivityService, _ query: ActivityListQuery) throws -> JSONValue {
        try #require(JSONValue.parse(Array(service.activitiesJSON(query, now: now))))
    }

    @Test func aPushIsAnsweredWhileAListingIsHeldMidway() throws {
        let device = Self.device(tokens: 3_000)
        let events = Locked<[String]>([])
        let midway = DispatchSemaphore(value: 0)
        let pushed = DispatchSemaphore(value: 0)
        let hookWaitedInVain = Locked(false)
        let service = LiveActivityService(device: device, strict: false) { count in
            events.withLock { $0.append("read copied \(count)") }
            midway.signal()
            // Bounded so a read that held the device's lock ends the test instead of hanging it.
            if pushed.wait(timeout: .now() + 60) == .timedOut { hookWaitedInVain.withLock { $0 = true } }
        }
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            let body = service.activitiesJSON(ActivityListQuery(page: AdminPage(limit: 1_000)), now: Self.now)
            events.withLock { $0.append("read serialized \(body.count > 0)") }
            done.signal()
        }
        reader.start()
        #expect(midway.wait(timeout: .now() + 60) == .success)
        let result = device.receive(Self.push(7, id: "DURING-READ"), now: Self.now)
        events.withLock { $0.append("push answered \(result.outcome.rawValue)") }
        pushed.signal()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(!hookWaitedInVain.withLock { $0 })
        #expect(events.withLock { $0 } == ["read copied 1000", "push answered applied", "read serialized true"])
    }

    @Test func pagesFollowTheCursorThroughEveryActivityOnce() throws {
        let service = LiveActivityService(device: Self.device(tokens: 250), strict: false)
        var seen: [String] = []
        var cursor = 0
        var pages = 0
        while pages < 10 {
            pages += 1
            let page = try Self.list(service, ActivityListQuery(page: AdminPage(limit: 100, position: cursor)))
            #expect(page["total"]?.doubleValue == 250)
            seen += (page["activities"]?.arrayValue ?? []).compactMap { $0["token"]?.stringValue }
            guard let next = page["nextCursor"]?.stringValue else { break }
            cursor = try #require(Int(next))
        }
        #expect(pages == 3)
        #expect(seen == (0..<250).map(Self.token))
    }

    @Test func changesSinceAPageListOnlyTheActivitiesPushedSince() throws {
        let device = Self.device(tokens: 50)
        let service = LiveActivityService(device: device, strict: false)
        let page = try Self.list(service, ActivityListQuery(page: AdminPage(limit: 10)))
        let since = try #require(page["changeSequence"]?.doubleValue)
        _ = device.receive(Self.push(42, id: "A"), now: Self.now)
        _ = device.receive(Self.push(3, id: "B"), now: Self.now)
        _ = device.receive(Self.push(42, id: "C"), now: Self.now)
        let changes = try Self.list(service, ActivityListQuery(changedSince: Int(since)))
        #expect(changes["complete"] == .bool(true))
        #expect((changes["activities"]?.arrayValue ?? []).compactMap { $0["token"]?.stringValue }
                == [Self.token(42), Self.token(3)])
        let after = try #require(changes["changeSequence"]?.doubleValue)
        let none = try Self.list(service, ActivityListQuery(changedSince: Int(after)))
        #expect(none["complete"] == .bool(true))
        #expect(none["activities"]?.arrayValue?.isEmpty == true)
        device.reset()
        let afterReset = try Self.list(service, ActivityListQuery(changedSince: Int(after)))
        #expect(afterReset["complete"] == .bool(false))
    }

    @Test func moreChangesThanTheLimitAskForAPageAgain() throws {
        let device = Self.device(tokens: 5)
        let service = LiveActivityService(device: device, strict: false)
        let since = try #require(try Self.list(service, ActivityListQuery())["changeSequence"]?.doubleValue)
        for index in 10..<20 { _ = device.receive(Self.push(index), now: Self.now) }
        let changes = try Self.list(service, ActivityListQuery(page: AdminPage(limit: 5), changedSince: Int(since)))
        #expect(changes["complete"] == .bool(false))
    }
}

/// The device remembers at most `tokenLimit` tokens: a new one beyond it forgets the oldest tenth.
@Suite struct LiveActivityTokenLimitTests {
    typealias R = LiveActivityReadTests

    @Test func aNewTokenBeyondTheLimitForgetsTheOldestTenthAndCursorsStayPut() throws {
        let device = LiveActivityDevice(configuration: LiveActivityConfiguration(tokenLimit: 100))
        for index in 0..<100 { _ = device.receive(R.push(index), now: R.now) }
        let before = device.activities(from: 0, limit: 50, now: R.now)
        #expect(before.total == 100)
        _ = device.receive(R.push(100), now: R.now)
        // Known tokens are pushed again without forgetting anything.
        _ = device.receive(R.push(99), now: R.now)
        let all = device.activities(from: 0, limit: 1_000, now: R.now)
        #expect(all.total == 91)
        #expect(all.activities.map(\.deviceToken) == (10...100).map(R.token))
        #expect(device.activity(token: R.token(3), now: R.now) == nil)
        #expect(device.activity(token: R.token(42), now: R.now)?.timeline.count == 1)
        #expect(device.activity(token: R.token(99), now: R.now)?.timeline.count == 2)
        // A cursor read before the oldest were forgotten still starts where it pointed.
        let next = try #require(before.next)
        #expect(device.activities(from: next, limit: 1, now: R.now).activities.first?.deviceToken == R.token(50))
        // What changed since before they were forgotten cannot be told: load a page again.
        #expect(!device.activities(changedSince: before.changeSequence, limit: 100, now: R.now).complete)
        for index in 101..<1_000 { _ = device.receive(R.push(index), now: R.now) }
        #expect(device.activities(from: 0, limit: 1, now: R.now).total <= 100)
    }
}
