@testable import APNSCore
import Testing


/// Pushes spread round-robin over tokens at the device's total timeline limit keep the newest entries, and a
/// token's ring reuses the slot its own oldest entry leaves rather than growing with a vacated one.
@Suite struct TimelineRoomTests {
    typealias P = TestPayloads

    struct Case: CustomTestStringConvertible, Sendable {
        var tokens: Int
        var totalLimit: Int
        var rounds: Int
        /// Entries each token keeps at the end, and the most slots any token's ring holds.
        var kept: Int
        var slots: Int
        var testDescription: String { "\(tokens) tokens, total \(totalLimit), \(rounds) rounds" }
    }

    static let cases: [Case] = [
        Case(tokens: 4, totalLimit: 4, rounds: 5, kept: 1, slots: 1),
        Case(tokens: 4, totalLimit: 8, rounds: 5, kept: 2, slots: 2),
        Case(tokens: 3, totalLimit: 1, rounds: 2, kept: 0, slots: 0),
        Case(tokens: 1, totalLimit: 1, rounds: 3, kept: 1, slots: 1),
    ]

    @Test(arguments: cases) func roundRobinAtTheTotalLimit(_ check: Case) {
        let device = LiveActivityDevice(configuration: LiveActivityConfiguration(
            schemas: [P.delivery], timelineLimit: 10, timelineTotalLimit: check.totalLimit))
        let tokens = (0..<check.tokens).map { String(repeating: "0", count: 158) + "a\($0)" }
        var offset = 0
        for round in 0..<check.rounds {
            for token in tokens {
                let push = LiveActivityPush(
                    deviceToken: token, topic: "com.example.app.push-type.liveactivity", priority: 5,
                    apnsID: "\(round)-\(token.suffix(2))",
                    payload: Array(P.update(timestamp: P.nowSeconds + offset).utf8))
                _ = device.receive(push, now: P.now.adding(seconds: Double(offset)))
                offset += 1
            }
        }
        let later = P.now.adding(seconds: Double(offset))
        let last = check.rounds - 1
        for (index, token) in tokens.enumerated() {
            let timeline = device.activity(token: token, now: later)?.timeline.map(\.apnsID) ?? []
            let expectedCount = index == tokens.count - 1 ? max(check.kept, 1) : check.kept
            #expect(timeline.count == expectedCount, "token \(index)")
            #expect(timeline.last.map { $0.hasPrefix("\(last)-") } ?? (expectedCount == 0), "token \(index)")
        }
        let slots = device.state.withLock { state in state.tokens.map(\.timeline.slotCount).max() ?? 0 }
        #expect(slots <= max(check.slots, 1))
    }
}
