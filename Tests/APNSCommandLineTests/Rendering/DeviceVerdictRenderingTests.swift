@testable import APNSCore
@testable import APNSStore
import DeliveryFixtures
import APNSCommandLine
import Foundation
import Testing

/// The third verdict on a terminal: a push APNs accepted but the simulated device dropped, ignored or throttled is
/// shown apart from "accepted" in the deliveries table, in --follow rows and in explain's headline.
@Suite("The deliveries table and explain show the device's verdict")
struct DeviceVerdictRenderingTests {
    static let records: [DeliveryRecord] = [
        makeRecord(pushType: "alert"),
        makeRecord(pushType: "liveactivity", liveActivityCode: "applied"),
        makeRecord(pushType: "liveactivity", liveActivityCode: "dismissed"),
        makeRecord(pushType: "liveactivity", liveActivityCode: "ignoredOlderTimestamp"),
        makeRecord(pushType: "liveactivity", liveActivityCode: "ignoredAlreadyEnded"),
        makeRecord(pushType: "liveactivity", liveActivityCode: "droppedUndecodableContentState"),
        makeRecord(pushType: "liveactivity", liveActivityCode: "throttled"),
        makeRecord(pushType: "liveactivity", status: 400, reason: "MockDeviceDroppedStartWithoutAlert",
                   liveActivityCode: "droppedStartWithoutAlert"),
    ]

    @Test("the deliveries table shows the third verdict in yellow, not green")
    func table() {
        let records = Self.records.enumerated().map { $1.withID(Int64($0 + 1)) }
        let output = DeliveryTable.render(records, style: TerminalStyle(colour: true, width: 200))
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines[1].contains("\u{1B}[32m200"))
        #expect(lines[4].contains("\u{1B}[33m200 · ignored"))
        #expect(lines[6].contains("\u{1B}[33m200 · dropped by device"))
        #expect(lines[7].contains("\u{1B}[33m200 · throttled"))
        #expect(lines[8].contains("\u{1B}[31m400"))
    }

    @Test("--follow widths keep later rows under the header")
    func followAlignment() {
        let first = [makeRecord().withID(1)]
        let widths = DeliveryTable.followWidths(for: first)
        let style = TerminalStyle(colour: false, width: 200)
        let header = DeliveryTable.render(first, style: style, header: true, widths: widths).split(separator: "\n")[0]
        let later = makeRecord(token: String(repeating: "c", count: 64), topic: String(repeating: "t", count: 80),
                               pushType: "liveactivity", liveActivityCode: "droppedInvalidPayload").withID(123_456)
        let row = DeliveryTable.render([later], style: style, header: false, widths: widths)
        for heading in ["STATUS", "REASON", "TYPE", "TOKEN", "TOPIC", "EXPLANATION"] {
            let column = header.distance(from: header.startIndex, to: header.range(of: heading)!.lowerBound)
            let before = row.dropFirst(column - 2).prefix(2)
            #expect(before == "  ", "\(heading) column starts at \(column) in both")
        }
    }

    @Test("explain's headline names the third verdict, and the outcome is not said twice")
    func explainHeadline() {
        let dropped = makeRecord(pushType: "liveactivity", liveActivityCode: "droppedUndecodableContentState")
        let text = DeliveryExplanation.render(dropped, style: TerminalStyle(colour: false, width: 100))
        #expect(text.hasPrefix("ACCEPTED · DROPPED BY DEVICE  200"))
        let applied = DeliveryRecord(
            receivedAt: Timestamp(secondsSinceEpoch: 0), connectionID: 1, clientAddress: "x", method: "POST",
            path: "/3/device/a", deviceToken: "a", headers: [], payload: [], status: 200, reason: nil, apnsID: "i",
            pushType: "liveactivity", topic: "t",
            liveActivity: RecordedLiveActivityOutcome(code: "applied", explanation: "applied: content-state updated"),
            latencyMicroseconds: 1)
        let appliedText = DeliveryExplanation.render(applied, style: TerminalStyle(colour: false, width: 100))
        #expect(appliedText.hasPrefix("ACCEPTED  200"))
        #expect(!appliedText.contains("applied: applied:"))
        #expect(appliedText.contains("  applied: content-state updated"))
    }

}
