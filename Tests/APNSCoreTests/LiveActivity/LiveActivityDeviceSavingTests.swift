import APNSCore
import Foundation
import Testing

/// Activities survive a graceful restart: the device saved to the data directory and read back is the same device.
@Suite struct LiveActivityDeviceSavingTests {
    typealias P = TestPayloads
    static let token = String(repeating: "ab", count: 80)
    static let topic = "com.example.app.push-type.liveactivity"

    static func push(_ payload: String, id: String) -> LiveActivityPush {
        LiveActivityPush(deviceToken: token, topic: topic, apnsID: id, payload: Array(payload.utf8))
    }

    @Test func aSavedDeviceReadsBackWithItsActivitiesTimelinesAndTimestamps() throws {
        let configuration = LiveActivityConfiguration(schemas: [P.delivery])
        let device = LiveActivityDevice(configuration: configuration)
        _ = device.receive(Self.push(P.start(), id: "A"), now: P.now)
        _ = device.receive(Self.push(P.update(timestamp: P.nowSeconds + 60), id: "B"), now: P.now.adding(seconds: 60))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("la-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try device.save(to: path)

        let restarted = LiveActivityDevice(configuration: configuration)
        #expect(try restarted.restore(from: path) == 1)
        let later = P.now.adding(seconds: 120)
        // Equal as JSON (object members may come back in another order).
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let before = try encoder.encode(device.activity(token: Self.token, now: later))
        let after = try encoder.encode(restarted.activity(token: Self.token, now: later))
        #expect(String(decoding: after, as: UTF8.self) == String(decoding: before, as: UTF8.self))
        #expect(restarted.activity(token: Self.token, now: later)?.timeline.map(\.apnsID) == ["A", "B"])
        // The restored last-applied timestamp still decides: an older update is ignored after the restart.
        let older = restarted.receive(Self.push(P.update(timestamp: P.nowSeconds + 30), id: "C"), now: later)
        #expect(older.outcome == .ignoredOlderTimestamp)
    }

    @Test func aMissingFileIsAnEmptyDeviceAndAGarbledOneIsAnError() throws {
        let device = LiveActivityDevice()
        #expect(try device.restore(from: "/nonexistent/live-activities.json") == 0)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("la-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"version\":1,".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SavedDeviceStateError.self) { try device.restore(from: path) }
        #expect(device.allActivities(now: P.now).isEmpty)
    }

    /// A background restore returns before the file is read, but whoever uses the device next waits for it: the
    /// first push after start-up sees every saved activity, never an empty device.
    @Test func aBackgroundRestoreIsInBeforeTheDeviceIsUsed() throws {
        let configuration = LiveActivityConfiguration(schemas: [P.delivery])
        let device = LiveActivityDevice(configuration: configuration)
        let tokens = (0..<2_000).map { String(format: "%0160x", $0) }
        for token in tokens {
            _ = device.receive(
                LiveActivityPush(deviceToken: token, topic: Self.topic, apnsID: "S-\(token.suffix(4))",
                                 payload: Array(P.start().utf8)),
                now: P.now)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("la-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try device.save(to: path)

        let restarted = LiveActivityDevice(configuration: configuration)
        let restored = Locked<Result<Int, SavedDeviceStateError>?>(nil)
        restarted.restoreInBackground(from: path) { result in restored.withLock { $0 = result } }
        let update = restarted.receive(
            LiveActivityPush(deviceToken: tokens[1_999], topic: Self.topic, apnsID: "U",
                             payload: Array(P.update(timestamp: P.nowSeconds + 60).utf8)),
            now: P.now.adding(seconds: 60))
        #expect(update.outcome == .applied)
        #expect(restarted.allActivities(now: P.now.adding(seconds: 60)).count == tokens.count)
        #expect(try restored.withLock { $0 }?.get() == tokens.count)
    }

    @Test func aBackgroundRestoreReportsAGarbledFileAndLeavesTheDeviceEmpty() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("la-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("[".utf8).write(to: URL(fileURLWithPath: path))
        let device = LiveActivityDevice()
        let failed = Locked(false)
        device.restoreInBackground(from: path) { result in
            if case .failure = result { failed.withLock { $0 = true } }
        }
        #expect(device.allActivities(now: P.now).isEmpty)
        #expect(failed.withLock { $0 })
    }
}

/// The device keeps at most `timelineTotalLimit` timeline entries across every token, dropping the oldest first,
/// so its memory stays bounded however many tokens it sees.
@Suite struct TimelineTotalLimitTests {
    typealias P = TestPayloads
    static let topic = "com.example.app.push-type.liveactivity"

    static func send(_ device: LiveActivityDevice, token: String, id: String, offset: Int) {
        _ = device.receive(
            LiveActivityPush(deviceToken: token, topic: topic, apnsID: id,
                             payload: Array(P.update(timestamp: P.nowSeconds + offset).utf8)),
            now: P.now.adding(seconds: Double(offset)))
    }

    @Test func theOldestEntriesAcrossTokensGoFirst() {
        let device = LiveActivityDevice(configuration: LiveActivityConfiguration(
            schemas: [P.delivery], timelineLimit: 3, timelineTotalLimit: 5))
        let tokens = ["aa", "bb", "cc"].map { String(repeating: $0, count: 80) }
        var offset = 0
        for round in 0..<3 {
            for (index, token) in tokens.enumerated() {
                Self.send(device, token: token, id: "\(round)-\(index)", offset: offset)
                offset += 1
            }
        }
        let later = P.now.adding(seconds: Double(offset))
        let kept = tokens.map { device.activity(token: $0, now: later)?.timeline.map(\.apnsID) ?? [] }
        #expect(kept == [["2-0"], ["1-1", "2-1"], ["1-2", "2-2"]])
    }

    /// A token's own limit still applies, and entries it dropped are not counted twice against the total.
    @Test func aTokensOwnLimitAndTheTotalTogether() {
        let device = LiveActivityDevice(configuration: LiveActivityConfiguration(
            schemas: [P.delivery], timelineLimit: 2, timelineTotalLimit: 3))
        let one = String(repeating: "ab", count: 80), two = String(repeating: "cd", count: 80)
        for index in 0..<5 { Self.send(device, token: one, id: "one-\(index)", offset: index) }
        Self.send(device, token: two, id: "two-0", offset: 5)
        Self.send(device, token: two, id: "two-1", offset: 6)
        let later = P.now.adding(seconds: 7)
        #expect(device.activity(token: one, now: later)?.timeline.map(\.apnsID) == ["one-4"])
        #expect(device.activity(token: two, now: later)?.timeline.map(\.apnsID) == ["two-0", "two-1"])
    }

    /// A restored device joins the total: with a smaller total than it saved, the first tokens' entries go.
    @Test func aRestoredDeviceIsTrimmedToTheTotal() throws {
        let device = LiveActivityDevice(configuration: LiveActivityConfiguration(schemas: [P.delivery]))
        let tokens = ["aa", "bb"].map { String(repeating: $0, count: 80) }
        for (index, token) in tokens.enumerated() {
            Self.send(device, token: token, id: "\(index)-0", offset: 2 * index)
            Self.send(device, token: token, id: "\(index)-1", offset: 2 * index + 1)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("la-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try device.save(to: path)
        let restarted = LiveActivityDevice(configuration: LiveActivityConfiguration(
            schemas: [P.delivery], timelineTotalLimit: 3))
        #expect(try restarted.restore(from: path) == 2)
        let later = P.now.adding(seconds: 10)
        #expect(restarted.activity(token: tokens[0], now: later)?.timeline.map(\.apnsID) == ["0-1"])
        #expect(restarted.activity(token: tokens[1], now: later)?.timeline.map(\.apnsID) == ["1-0", "1-1"])
    }
}
