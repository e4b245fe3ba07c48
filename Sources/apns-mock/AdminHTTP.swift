import HTTP2
import APNSCommandLine
import APNSJSON
import Foundation

/// Raw JSON requests to the embedded mock's admin API (`check`, `conformance sender`): the graders read the
/// delivery JSON the admin API publishes, not the store's types.
struct AdminHTTP: Sendable {
    /// `http://host:port`, as users pass it (`--admin-url`) and as the embedded mock builds it.
    let baseURL: String

    struct Failure: Error, CustomStringConvertible { let description: String }

    func request(_ method: String, _ path: String, body: Data? = nil, timeout: TimeInterval = 30) throws -> (status: Int, body: Data) {
        guard let endpoint = HTTP2Endpoint(url: baseURL), !endpoint.useTLS else {
            throw Failure(description: "bad admin URL \(baseURL) (expected http://HOST:PORT)")
        }
        let headers = body == nil ? [] : [(name: "Content-Type", value: "application/json")]
        do {
            let response = try HTTP1Exchange.send(
                method, path, host: endpoint.host, port: endpoint.port, headers: headers, body: body.map { Array($0) },
                timeout: timeout)
            return (response.status, Data(response.body))
        } catch {
            throw Failure(description: "admin API \(baseURL + path): \(error.description)")
        }
    }

    /// Every delivery with an id above `afterID`, oldest first, page by page.
    func deliveries(after afterID: Int64 = 0) throws -> [Data] {
        var pages: [Data] = []
        var cursor = afterID
        for _ in 0..<10_000 {
            let (status, body) = try request("GET", "/api/deliveries?order=asc&limit=1000&after_id=\(cursor)")
            guard status == 200 else { throw Failure(description: "GET /api/deliveries answered \(status): \(String(decoding: body, as: UTF8.self))") }
            guard let list = try JSONParser.parse(Array(body))["deliveries"]?.arrayValue, !list.isEmpty else { break }
            pages.append(body)
            guard let last = (list.compactMap { $0["id"]?.int64Value }.max()), last > cursor else { break }
            cursor = last
            if list.count < 1000 { break }
        }
        return pages
    }
}
