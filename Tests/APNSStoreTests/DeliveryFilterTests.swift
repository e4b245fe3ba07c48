import APNSCore
import APNSStore
import DeliveryFixtures
import Foundation
import Testing

/// One table of filters, run against both stores, so SQL and Swift matching agree.
@Suite("Delivery filters select the same records in both stores")
struct DeliveryFilterTests {
    static let t0 = Timestamp(secondsSinceEpoch: 1_767_225_600)

    /// Records keyed by a short name the table refers to.
    static let records: [(String, DeliveryRecord)] = [
        ("ok-alert", makeRecord(token: "aa11", topic: "com.example.app", pushType: "alert", receivedAt: t0,
                                payload: #"{"aps":{"alert":"Hello World"}}"#)),
        ("ok-la", makeRecord(token: "bb22", topic: "com.example.app.push-type.liveactivity",
                             pushType: "liveactivity", receivedAt: t0.adding(seconds: 10))),
        ("bad-token", makeRecord(token: "cc33", status: 400, reason: "BadDeviceToken",
                                 receivedAt: t0.adding(seconds: 20), explanation: "The token is not 64 hex digits")),
        ("expired", makeRecord(token: "aa11", status: 403, reason: "ExpiredProviderToken",
                               receivedAt: t0.adding(seconds: 30))),
        ("unregistered", makeRecord(token: "dd44", pushType: "background", status: 410, reason: "Unregistered",
                                    receivedAt: t0.adding(seconds: 40),
                                    warnings: [PushWarning(code: "background-priority-10", message: "Use 5")])),
    ]

    static let cases: [(String, DeliveryFilter, [String])] = [
        ("everything", .all, ["ok-alert", "ok-la", "bad-token", "expired", "unregistered"]),
        ("token", DeliveryFilter(token: "aa11"), ["ok-alert", "expired"]),
        ("topic", DeliveryFilter(topic: "com.example.app.push-type.liveactivity"), ["ok-la"]),
        ("push type", DeliveryFilter(pushType: "background"), ["unregistered"]),
        ("status", DeliveryFilter(status: 403), ["expired"]),
        ("reason", DeliveryFilter(reason: "BadDeviceToken"), ["bad-token"]),
        ("accepted", DeliveryFilter(accepted: true), ["ok-alert", "ok-la"]),
        ("rejected", DeliveryFilter(accepted: false), ["bad-token", "expired", "unregistered"]),
        ("since is inclusive", DeliveryFilter(since: t0.adding(seconds: 20)), ["bad-token", "expired", "unregistered"]),
        ("until is exclusive", DeliveryFilter(until: t0.adding(seconds: 20)), ["ok-alert", "ok-la"]),
        ("time window", DeliveryFilter(since: t0.adding(seconds: 10), until: t0.adding(seconds: 31)),
         ["ok-la", "bad-token", "expired"]),
        ("text in payload, any case", DeliveryFilter(text: "hello world"), ["ok-alert"]),
        ("text in explanation", DeliveryFilter(text: "64 HEX"), ["bad-token"]),
        ("text in warning code", DeliveryFilter(text: "priority-10"), ["unregistered"]),
        ("text in reason", DeliveryFilter(text: "expiredprovider"), ["expired"]),
        ("text across a header's name and value", DeliveryFilter(text: "APNS-PUSH-TYPE: BACKGROUND"), ["unregistered"]),
        ("text with a quote, as the payload has it", DeliveryFilter(text: #""alert":"hello w"#), ["ok-alert"]),
        ("text only in the JSON form (a key) matches nothing", DeliveryFilter(text: "latencyMicroseconds"), []),
        ("text only in an unsearched field matches nothing", DeliveryFilter(text: "tls_aes_128"), []),
        ("text and a column", DeliveryFilter(token: "aa11", text: "example"), ["ok-alert", "expired"]),
        ("combined", DeliveryFilter(token: "aa11", accepted: false), ["expired"]),
        ("no match", DeliveryFilter(token: "zz99"), []),
    ]

    static var arguments: [(StoreKind, Int)] {
        StoreKind.allCases.flatMap { kind in cases.indices.map { (kind, $0) } }
    }

    @Test("filter selects exactly the expected records, newest first", arguments: arguments)
    func filter(kind: StoreKind, caseIndex: Int) throws {
        let (name, filter, expectedNames) = Self.cases[caseIndex]
        let store = try kind.make(retention: RetentionPolicy(maxCount: 1_000, maxAge: nil))
        defer { store.close() }
        var nameByID: [Int64: String] = [:]
        for (recordName, record) in Self.records {
            nameByID[appendDurably(store, record)] = recordName
        }
        let found = try store.deliveries(DeliveryQuery(filter: filter, limit: 100)).map { nameByID[$0.id]! }
        #expect(found == expectedNames.reversed(), "\(name)")
        let oldestFirst = try store.deliveries(DeliveryQuery(filter: filter, limit: 100, order: .oldestFirst))
        #expect(oldestFirst.map { nameByID[$0.id]! } == expectedNames, "\(name)")
        for record in try store.deliveries(DeliveryQuery(limit: 100)) {
            #expect(filter.matches(record) == expectedNames.contains(nameByID[record.id]!), "\(name)")
        }
    }

    @Test("after_id, before_id and limit page through the list", arguments: StoreKind.allCases)
    func paging(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let ids = (0..<10).map { _ in appendDurably(store, makeRecord()) }
        #expect(try store.deliveries(DeliveryQuery(limit: 3)).map(\.id) == Array(ids.suffix(3).reversed()))
        #expect(try store.deliveries(DeliveryQuery(beforeID: ids[7], limit: 2)).map(\.id) == [ids[6], ids[5]])
        #expect(try store.deliveries(DeliveryQuery(afterID: ids[7], limit: 5, order: .oldestFirst)).map(\.id)
            == [ids[8], ids[9]])
        #expect(try store.deliveries(DeliveryQuery(limit: 0)).isEmpty)
    }
}
