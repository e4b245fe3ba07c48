import APNSMock
import APNSCore
import APNSStore
import DeliveryFixtures
import Foundation
import Testing

/// The admin API's JSON bodies, called through the router (no sockets).
@Suite struct AdminJSONTests {
    private func body(_ router: AdminRouter, _ method: String, _ uri: String) throws -> String {
        guard case .respond(let response) = router.route(AdminRequest(method: method, uri: uri)) else {
            Issue.record("\(uri) did not answer at once")
            return ""
        }
        return String(decoding: response.body, as: UTF8.self)
    }

    private func router(_ store: any DeliveryStore) -> AdminRouter {
        AdminRouter(
            store: store, backend: FakeBackend(), bearerToken: nil,
            inspector: InspectorFiles(directory: URL(fileURLWithPath: "/nonexistent")))
    }

    @Test func healthWritesStatusOnceWhenTheStoreFails() throws {
        let store = StoreThatCannotCount()
        defer { store.close() }
        let text = try body(router(store), "GET", "/api/health")
        #expect(text.components(separatedBy: "\"status\"").count == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["status"] as? String == "degraded")
        #expect(object["storeError"] is String)
        #expect(object["deliveries"] == nil)
        #expect((object["server"] as? [String: Any])?["listeners"] as? [String] == ["h2c"])
    }

    @Test func healthIsOkWithTheCountWhenTheStoreWorks() throws {
        let store = InMemoryDeliveryStore()
        defer { store.close() }
        appendDurably(store, makeRecord())
        let text = try body(router(store), "GET", "/api/health")
        #expect(text == #"{"deliveries":1,"latestDeliveryId":1,"server":{"listeners":["h2c"]},"status":"ok"}"#)
    }

    @Test func listWrapsTheRecordsAsTheyAreServedOneByOne() throws {
        let store = InMemoryDeliveryStore()
        defer { store.close() }
        let first = appendDurably(store, makeRecord(token: "aa11"))
        let second = appendDurably(store, makeRecord(token: "bb22"))
        let records = try [second, first].map { try #require(try store.delivery(id: $0)) }
        let expected = "{\"deliveries\":["
            + records.map { String(decoding: $0.jsonBytes(providerTokenAsObjects: true), as: UTF8.self) }.joined(separator: ",")
            + "],\"latestId\":\(second),\"nextCursor\":null}"
        #expect(try body(router(store), "GET", "/api/deliveries") == expected)
        // A full page names the last id as the next page's cursor; that page holds the rest.
        let full = try body(router(store), "GET", "/api/deliveries?limit=1")
        #expect(full.hasSuffix(",\"latestId\":\(second),\"nextCursor\":\"\(second)\"}"))
        let rest = try body(router(store), "GET", "/api/deliveries?limit=1&cursor=\(second)")
        #expect(rest.contains("\"id\":\(first),") && rest.hasSuffix("\"nextCursor\":\"\(first)\"}"))
    }

    @Test func errorsAndResetAreSmallObjects() throws {
        let store = InMemoryDeliveryStore()
        defer { store.close() }
        appendDurably(store, makeRecord())
        #expect(try body(router(store), "GET", "/api/nothing") == #"{"error":"no such route"}"#)
        #expect(try body(router(store), "DELETE", "/api/deliveries") == #"{"deleted":1}"#)
    }
}

/// An in-memory store whose `count()` fails as a broken SQLite file would.
final class StoreThatCannotCount: DeliveryStore {
    private let inner = InMemoryDeliveryStore()

    func append(
        _ record: DeliveryRecord, completion: @escaping @Sendable (Result<Int64, DeliveryStoreError>) -> Void
    ) -> Int64 {
        inner.append(record, completion: completion)
    }

    func deliveries(_ query: DeliveryQuery) throws(DeliveryStoreError) -> [DeliveryRecord] { try inner.deliveries(query) }
    func delivery(id: Int64) throws(DeliveryStoreError) -> DeliveryRecord? { try inner.delivery(id: id) }
    func delivery(apnsID: String) throws(DeliveryStoreError) -> DeliveryRecord? { try inner.delivery(apnsID: apnsID) }
    func waitForNext(_ filter: DeliveryFilter, after afterID: Int64, timeout: Duration) throws(DeliveryStoreError)
        -> DeliveryRecord?
    {
        try inner.waitForNext(filter, after: afterID, timeout: timeout)
    }
    func count() throws(DeliveryStoreError) -> Int { throw .sqlite(code: 11, message: "database disk image is malformed") }
    var latestID: Int64 { inner.latestID }
    func reset() throws(DeliveryStoreError) -> Int { try inner.reset() }
    func exportJSONLines(_ filter: DeliveryFilter, to write: (Data) throws -> Void) throws {
        try inner.exportJSONLines(filter, to: write)
    }
    func flush() { inner.flush() }
    func close() { inner.close() }
}
