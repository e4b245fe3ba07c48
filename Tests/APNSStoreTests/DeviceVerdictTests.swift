import APNSAdmin
import APNSCore
import Foundation
import Testing

@testable import APNSStore

/// The third verdict: APNs answered 200 but the simulated device dropped, ignored or throttled the push. Every view
/// must show it apart from "accepted", and the filter `device=` must select it in both stores.
@Suite("Pushes the device dropped, ignored or throttled are a verdict of their own")
struct DeviceVerdictTests {
    static let records: [(String, DeliveryRecord)] = [
        ("alert", makeRecord(pushType: "alert")),
        ("applied", makeRecord(pushType: "liveactivity", liveActivityCode: "applied")),
        ("dismissed", makeRecord(pushType: "liveactivity", liveActivityCode: "dismissed")),
        ("stale", makeRecord(pushType: "liveactivity", liveActivityCode: "ignoredOlderTimestamp")),
        ("ended", makeRecord(pushType: "liveactivity", liveActivityCode: "ignoredAlreadyEnded")),
        ("undecodable", makeRecord(pushType: "liveactivity", liveActivityCode: "droppedUndecodableContentState")),
        ("throttled", makeRecord(pushType: "liveactivity", liveActivityCode: "throttled")),
        ("strict", makeRecord(pushType: "liveactivity", status: 400, reason: "MockDeviceDroppedStartWithoutAlert",
                              liveActivityCode: "droppedStartWithoutAlert")),
    ]

    static let cases: [(DeviceHandling, [String])] = [
        (.applied, ["applied", "dismissed"]),
        (.ignored, ["stale", "ended"]),
        (.dropped, ["undecodable", "strict"]),
        (.throttled, ["throttled"]),
    ]

    static var arguments: [(StoreKind, Int)] {
        StoreKind.allCases.flatMap { kind in cases.indices.map { (kind, $0) } }
    }

    @Test("device= selects the same records in SQL and in Swift", arguments: arguments)
    func filter(kind: StoreKind, caseIndex: Int) throws {
        let (handling, expected) = Self.cases[caseIndex]
        let store = try kind.make(retention: RetentionPolicy(maxCount: 1_000, maxAge: nil))
        defer { store.close() }
        var nameByID: [Int64: String] = [:]
        for (name, record) in Self.records { nameByID[appendDurably(store, record)] = name }
        let found = try store.deliveries(DeliveryQuery(filter: DeliveryFilter(device: handling), order: .oldestFirst))
        #expect(found.map { nameByID[$0.id]! } == expected, "\(handling)")
    }

    @Test("the query string spells the filter device=…, and refuses other words")
    func queryString() throws {
        let filter = try DeliveryFilter(queryItems: ["device": "dropped"])
        #expect(filter.device == .dropped)
        #expect(filter.queryItems.map { "\($0)=\($1)" } == ["device=dropped"])
        #expect(throws: AdminParameterError.self) { try DeliveryFilter(queryItems: ["device": "lost"]) }
    }

    @Test("status label: 200 · dropped by device, 200 · ignored, 200 · throttled; plain 200 when applied")
    func labels() {
        let labels = Dictionary(uniqueKeysWithValues: Self.records.map { ($0.0, $0.1.statusLabel) })
        #expect(labels["alert"] == "200")
        #expect(labels["applied"] == "200")
        #expect(labels["dismissed"] == "200")
        #expect(labels["stale"] == "200 · ignored")
        #expect(labels["undecodable"] == "200 · dropped by device")
        #expect(labels["throttled"] == "200 · throttled")
        #expect(labels["strict"] == "400")
    }

    @Test("the deliveries table shows the third verdict in yellow, not green")
    func table() {
        let records = Self.records.map(\.1).enumerated().map { $1.withID(Int64($0 + 1)) }
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
            liveActivity: LiveActivityOutcome(code: "applied", explanation: "applied: content-state updated"),
            latencyMicroseconds: 1)
        let appliedText = DeliveryExplanation.render(applied, style: TerminalStyle(colour: false, width: 100))
        #expect(appliedText.hasPrefix("ACCEPTED  200"))
        #expect(!appliedText.contains("applied: applied:"))
        #expect(appliedText.contains("  applied: content-state updated"))
    }

    @Test("the admin form serves the JWT header and claims as JSON objects and still decodes to the record")
    func providerTokenObjects() throws {
        let record = makeRecord().withID(5)
        let bytes = record.jsonBytes(providerTokenAsObjects: true)
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as! [String: Any]
        let token = object["providerToken"] as! [String: Any]
        #expect((token["header"] as? [String: Any])?["kid"] as? String == "ABC123DEFG")
        #expect((token["claims"] as? [String: Any])?["iss"] as? String == "TEAM123456")
        let decoded = try JSONDecoder().decode(DeliveryRecord.self, from: Data(bytes))
        let header = try JSONSerialization.jsonObject(with: Data(decoded.providerToken!.header!.utf8)) as! [String: String]
        #expect(header == ["alg": "ES256", "kid": "ABC123DEFG"])
        // The stored form keeps JSON text.
        let stored = try JSONSerialization.jsonObject(with: Data(record.jsonBytes)) as! [String: Any]
        #expect((stored["providerToken"] as! [String: Any])["header"] is String)
    }
}
