import HTTP2
import APNSJSON
import APNSCore
import Foundation

/// A blocking client of the admin API for the command line (`apns-mock deliveries`, `apns-mock explain`).
package struct AdminClient: DeliveryReader, Sendable {
    package typealias ReadError = any Error

    package let host: String
    package let port: Int
    package let bearerToken: String?

    package init(host: String, port: Int, bearerToken: String? = nil) {
        self.host = host
        self.port = port
        self.bearerToken = bearerToken
    }

    /// `http://host:port` (IPv6 in brackets), for messages.
    package var baseURL: String { HTTP2Endpoint(host: host, port: port, useTLS: false).description }

    /// The most records the server answers per request (`AdminRouter.maxLimit`).
    package static let pageLimit = 1_000

    /// The records of `deliveryPage(query)`.
    package func deliveries(_ query: DeliveryQuery) throws -> [DeliveryRecord] {
        try deliveryPage(query).records
    }

    /// `GET /api/deliveries` with a query, with the rows the server left out (`undecodable`); a `limit` above what
    /// the server answers at once (`pageLimit`) is read page by page, each continuing after the last id of the one
    /// before, until `limit` records or the end.
    package func deliveryPage(_ query: DeliveryQuery) throws -> DeliveryPage {
        var result = DeliveryPage(records: [])
        var page = query
        while result.records.count < query.limit {
            page.limit = min(query.limit - result.records.count, Self.pageLimit)
            let fresh = try serverPage(page)
            result.records += fresh.records
            result.undecodable += fresh.undecodable
            guard fresh.records.count == page.limit, let last = fresh.records.last else { break }
            if query.order == .newestFirst { page.beforeID = last.id } else { page.afterID = last.id }
        }
        return result
    }

    /// One `GET /api/deliveries`: at most `pageLimit` records.
    private func serverPage(_ query: DeliveryQuery) throws -> DeliveryPage {
        var items = query.filter.queryItems
        items.append(("limit", String(query.limit)))
        items.append(("order", query.order.rawValue))
        if let afterID = query.afterID { items.append(("after_id", String(afterID))) }
        if let beforeID = query.beforeID { items.append(("before_id", String(beforeID))) }
        let (status, body) = try get("/api/deliveries", items)
        try Self.expect(200, status, body)
        let list = try JSONDecoding.decode(DeliveryList.self, from: body)
        return DeliveryPage(records: list.deliveries, undecodable: list.undecodable ?? [])
    }

    /// `GET /api/deliveries/{id}`; nil on 404.
    package func delivery(id: Int64) throws -> DeliveryRecord? {
        try delivery(key: String(id))
    }

    /// `GET /api/deliveries/{apns-id}`; nil on 404.
    package func delivery(apnsID: String) throws -> DeliveryRecord? {
        try delivery(key: apnsID)
    }

    /// `GET /api/deliveries/{apns-id or id}`; nil on 404.
    private func delivery(key: String) throws -> DeliveryRecord? {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let (status, body) = try get("/api/deliveries/" + (key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key), [])
        if status == 404 { return nil }
        try Self.expect(200, status, body)
        return try JSONDecoding.decode(DeliveryRecord.self, from: body)
    }

    /// `GET /api/deliveries/wait`: the next matching delivery after `afterID`, or nil when `timeout` passed.
    package func waitForNext(_ filter: DeliveryFilter, after afterID: Int64, timeout: Duration) throws -> DeliveryRecord? {
        var items = filter.queryItems
        items.append(("after_id", String(afterID)))
        let millis = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        items.append(("timeout_ms", String(millis)))
        let (status, body) = try get("/api/deliveries/wait", items, timeout: Double(millis) / 1000 + 30)
        if status == 204 { return nil }
        try Self.expect(200, status, body)
        return try JSONDecoding.decode(DeliveryRecord.self, from: body)
    }

    /// The highest delivery id the server has stored.
    package func newestID() throws -> Int64 {
        let (status, body) = try get("/api/deliveries", [("limit", "1")])
        try Self.expect(200, status, body)
        return try JSONDecoding.decode(DeliveryList.self, from: body).latestId
    }

    private struct DeliveryList: Decodable {
        let deliveries: [DeliveryRecord]
        let latestId: Int64
        let undecodable: [UndecodableDelivery]?
    }

    private func get(_ path: String, _ items: [(String, String)], timeout: TimeInterval = 30) throws -> (Int, Data) {
        let query = items.isEmpty ? "" : "?" + QueryString.encode(items)
        let headers = bearerToken.map { [(name: "Authorization", value: "Bearer \($0)")] } ?? []
        do {
            let response = try HTTP1Exchange.send(
                "GET", path + query, host: host, port: port, headers: headers, timeout: timeout)
            return (response.status, Data(response.body))
        } catch {
            throw AdminClientError.unreachable(baseURL, error.description)
        }
    }

    private static func expect(_ wanted: Int, _ status: Int, _ body: Data) throws {
        guard status == wanted else {
            let message = (try? JSONDecoding.decode([String: String].self, from: body))?["error"]
                ?? String(decoding: body.prefix(200), as: UTF8.self)
            throw AdminClientError.status(status, message)
        }
    }
}

package enum AdminClientError: Error, CustomStringConvertible {
    case unreachable(String, String)
    case status(Int, String)

    package var description: String {
        switch self {
        case .unreachable(let url, let detail):
            return "no apns-mock admin API at \(url) (\(detail)); is the server running? Use --data-dir to read the store file instead"
        case .status(let status, let message): return "admin API answered \(status): \(message)"
        }
    }
}
