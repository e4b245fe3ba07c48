import APNSCore
import APNSLiveActivity
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
