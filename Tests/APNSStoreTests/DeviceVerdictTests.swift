@testable import APNSCore
import DeliveryFixtures
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
