import APNSMock
import APNSCommandLine
@testable import APNSCore
import DeliveryFixtures
@testable import APNSStore
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A backend that answers from fixed values and remembers configuration changes.
final class FakeBackend: AdminBackend {
    let configBodies = Locked<[String: Data]>([:])
    let metrics = Metrics()

    func healthJSON() -> Data { Data(#"{"listeners":["h2c"]}"#.utf8) }
    func activitiesJSON(_ query: ActivityListQuery) -> Data { Data(#"{"activities":[{"token":"aa11"}]}"#.utf8) }
    func activityJSON(token: String) -> Data? { token == "aa11" ? Data(#"{"token":"aa11","timeline":[]}"#.utf8) : nil }
    func metricsText() -> String { metrics.prometheusText() }
    func config(section: String) -> AdminResponse { .json(200, configBodies.withLock { $0[section] } ?? Data("{}".utf8)) }
    func updateConfig(section: String, body: Data) -> AdminResponse {
        configBodies.withLock { $0[section] = body }
        return .json(200, Data(#"{"applied":true}"#.utf8))
    }
}

/// Runs an admin server on a free loopback port for one test.
struct RunningAdmin {
    let store: InMemoryDeliveryStore
    let backend = FakeBackend()
    let server: AdminServer

    init(token: String? = nil) throws {
        store = InMemoryDeliveryStore()
        server = try AdminServer(host: "127.0.0.1", port: 0, bearerToken: token, store: store, backend: backend)
        try server.start()
    }

    var client: AdminClient { AdminClient(host: "127.0.0.1", port: server.port) }

    /// Raw request: status, content type and body.
    func request(_ method: String, _ path: String, token: String? = nil, body: Data? = nil) throws
        -> (Int, String, Data)
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let result = Locked<(Int, String, Data)?>(nil)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            let http = response as? HTTPURLResponse
            result.withLock {
                $0 = (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "Content-Type") ?? "", data ?? Data())
            }
            done.signal()
        }.resume()
        done.wait()
        return try #require(result.withLock { $0 })
    }

    func stop() {
        server.stop()
        store.close()
    }
}

@Suite("Admin API over HTTP")
struct AdminServerTests {
    @Test("lists with filters, gets by id and apns-id, and 404s an unknown one")
    func listAndGet() throws {
        let admin = try RunningAdmin()
        defer { admin.stop() }
        let accepted = appendDurably(admin.store, makeRecord(token: "aa11", apnsID: "11111111-2222-4333-8444-555555555555"))
        appendDurably(admin.store, makeRecord(token: "bb22", status: 400, reason: "BadTopic"))
        let rejected = try admin.client.deliveries(DeliveryQuery(filter: DeliveryFilter(accepted: false)))
        #expect(rejected.map(\.reason) == ["BadTopic"])
        #expect(try admin.client.deliveries(DeliveryQuery()).count == 2)
        #expect(try admin.client.delivery(matching: String(accepted))?.deviceToken == "aa11")
        #expect(try admin.client.delivery(matching: "11111111-2222-4333-8444-555555555555")?.id == accepted)
        #expect(try admin.client.delivery(matching: "nope") == nil)
        #expect(try admin.client.newestID() == accepted + 1)
    }

    @Test("a long poll does not hold up other requests and returns the delivery when it arrives")
    func longPollDoesNotBlock() throws {
        let admin = try RunningAdmin()
        defer { admin.stop() }
        let start = admin.store.latestID
        let found = Locked<DeliveryRecord?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let client = admin.client
        Thread {
            let record = try? client.waitForNext(DeliveryFilter(token: "wanted"), after: start, timeout: .seconds(20))
            found.withLock { $0 = record }
            finished.signal()
        }.start()
        #expect(admin.store.longPollSignal.waitUntilParked())
        let (status, _, _) = try admin.request("GET", "/api/health")
        #expect(status == 200)
        // Answered while the poll is still parked: had the poll held up the loop, it would have finished first.
        #expect(finished.wait(timeout: .now()) == .timedOut)
        appendDurably(admin.store, makeRecord(token: "noise"))
        appendDurably(admin.store, makeRecord(token: "wanted"))
        #expect(finished.wait(timeout: .now() + 15) == .success)
        #expect(found.withLock { $0?.deviceToken } == "wanted")
    }

    @Test("a long poll that times out answers 204")
    func longPollTimeout() throws {
        let admin = try RunningAdmin()
        defer { admin.stop() }
        let (status, _, body) = try admin.request("GET", "/api/deliveries/wait?token=x&timeout_ms=100")
        #expect(status == 204)
        #expect(body.isEmpty)
    }

    @Test("with a bearer token, the API and metrics need it but the inspector page does not")
    func bearerToken() throws {
        let admin = try RunningAdmin(token: "s3cret")
        defer { admin.stop() }
        #expect(try admin.request("GET", "/api/deliveries").0 == 401)
        #expect(try admin.request("GET", "/metrics", token: "wrong").0 == 401)
        #expect(try admin.request("GET", "/api/deliveries", token: "s3cret").0 == 200)
        #expect(try admin.request("GET", "/").0 == 200)
    }

    @Test("reset, export, metrics, activities and config go where they should")
    func otherRoutes() throws {
        let admin = try RunningAdmin()
        defer { admin.stop() }
        appendDurably(admin.store, makeRecord(status: 400, reason: "BadTopic"))
        appendDurably(admin.store, makeRecord())
        let (exportStatus, exportType, export) = try admin.request("GET", "/api/deliveries/export?accepted=false")
        #expect(exportStatus == 200 && exportType == "application/x-ndjson")
        #expect(export.split(separator: 0x0A).count == 1)
        admin.backend.metrics.recordRequest(status: 400, reason: "BadTopic", latencyMicroseconds: 300)
        let metrics = String(decoding: try admin.request("GET", "/metrics").2, as: UTF8.self)
        #expect(metrics.contains(#"apns_mock_rejections_total{reason="BadTopic"} 1"#))
        #expect(metrics.contains(#"apns_mock_response_latency_seconds_bucket{le="0.0005"} 1"#))
        #expect(try admin.request("GET", "/api/activities/aa11").0 == 200)
        #expect(try admin.request("GET", "/api/activities/zz").0 == 404)
        let change = Data(#"{"faults":[{"kind":"status","status":500}]}"#.utf8)
        #expect(try admin.request("POST", "/api/config/faults", body: change).0 == 200)
        #expect(admin.backend.configBodies.withLock { $0["faults"] } == change)
        let (resetStatus, _, resetBody) = try admin.request("DELETE", "/api/deliveries")
        #expect(resetStatus == 200 && String(decoding: resetBody, as: UTF8.self) == #"{"deleted":2}"#)
        #expect(try admin.request("GET", "/api/deliveries?accepted=maybe").0 == 400)
        #expect(try admin.request("PUT", "/api/deliveries").0 == 405)
    }

    @Test("serves the inspector files with a content security policy, and nothing outside them")
    func inspectorFiles() throws {
        let admin = try RunningAdmin()
        defer { admin.stop() }
        let (status, type, body) = try admin.request("GET", "/")
        #expect(status == 200 && type.hasPrefix("text/html"))
        #expect(String(decoding: body, as: UTF8.self).contains("inspector.js"))
        #expect(try admin.request("GET", "/inspector.js").1.hasPrefix("text/javascript"))
        #expect(try admin.request("GET", "/..%2FPackage.swift").0 == 404)
        #expect(try admin.request("GET", "/nope.js").0 == 404)
    }
}
