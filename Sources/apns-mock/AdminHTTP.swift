import APNSJSON
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Raw JSON requests to the embedded mock's admin API (`check`, `conformance sender`): the graders read the
/// delivery JSON the admin API publishes, not the store's types.
struct AdminHTTP: Sendable {
    let baseURL: String

    struct Failure: Error, CustomStringConvertible { let description: String }

    func request(_ method: String, _ path: String, body: Data? = nil, timeout: TimeInterval = 30) throws -> (status: Int, body: Data) {
        guard let url = URL(string: baseURL + path) else { throw Failure(description: "bad admin URL \(baseURL + path)") }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "content-type")
        }
        final class Box: @unchecked Sendable { var result: Result<(Int, Data), Error> = .failure(Failure(description: "no answer")) }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                box.result = .failure(Failure(description: "admin API \(url): \(error.localizedDescription)"))
            } else {
                box.result = .success(((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
            }
            done.signal()
        }.resume()
        done.wait()
        let (status, data) = try box.result.get()
        return (status, data)
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
