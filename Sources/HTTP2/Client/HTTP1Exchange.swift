import HTTPContract
import Foundation

/// One blocking HTTP/1.1 request and its response over a plain TCP connection (`Connection: close`), for the
/// admin API's command-line clients. Uses the push client's socket (`ClientSocket`), so the command line needs no
/// URL-loading library (FoundationNetworking would load libcurl and some twenty libraries it needs into every
/// `apns-mock` process).
public enum HTTP1Exchange {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// No TCP connection (refused, unreachable, no such host).
        case connect(String)
        /// No complete response within the timeout.
        case timeout(Double)
        /// The connection broke, or the answer was not HTTP/1.1.
        case broken(String)

        public var description: String {
            switch self {
            case .connect(let detail): return detail
            case .timeout(let seconds): return "no complete answer within \(String(format: "%g", seconds)) s"
            case .broken(let detail): return detail
            }
        }
    }

    /// Sends `method target` to `host:port` and returns the response; `timeout` bounds connecting and the whole
    /// exchange.
    public static func send(
        _ method: String, _ target: String, host: String, port: Int, headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil, timeout: Double
    ) throws(Failure) -> HTTP1Response {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        let socket: ClientSocket
        do {
            socket = try ClientSocket(host: host, port: port, tls: nil, timeout: timeout)
        } catch {
            throw .connect(error.description)
        }
        defer { socket.close() }
        let request = requestBytes(method, target, host: host, port: port, headers: headers, body: body)
        var sent = 0
        while sent < request.count {
            let count = request.withUnsafeBytes { socket.write(UnsafeRawBufferPointer(rebasing: $0[sent...])) }
            guard let count else { throw .broken("the connection closed while sending the request") }
            sent += count
            if count == 0 {
                guard let left = secondsLeft(until: deadline) else { throw .timeout(timeout) }
                _ = socket.wait(write: true, timeout: left)
            }
        }
        var parser = HTTP1ResponseParser()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            switch chunk.withUnsafeMutableBytes({ socket.read(into: $0) }) {
            case .bytes(let count):
                if let response = try answer({ () throws(HTTP1ResponseParser.ParseError) in
                    try parser.feed(chunk[..<count])
                }) {
                    return response
                }
            case .closed:
                return try answer { () throws(HTTP1ResponseParser.ParseError) in try parser.finish() }
            case .failed(let detail):
                throw .broken(detail)
            case .wouldBlock:
                guard let left = secondsLeft(until: deadline) else { throw .timeout(timeout) }
                _ = socket.wait(write: false, timeout: left)
            }
        }
    }

    /// The parser's result, its refusal reported as a broken exchange.
    private static func answer<T>(_ parse: () throws(HTTP1ResponseParser.ParseError) -> T) throws(Failure) -> T {
        do {
            return try parse()
        } catch {
            throw .broken(error.description)
        }
    }

    /// The request's bytes: request line, `Host`, `Connection: close`, the caller's fields, `Content-Length` when
    /// there is a body, then the body.
    static func requestBytes(
        _ method: String, _ target: String, host: String, port: Int, headers: [(name: String, value: String)],
        body: [UInt8]?
    ) -> [UInt8] {
        let authority = HTTP2Endpoint(host: host, port: port, useTLS: false).authority
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    private static func secondsLeft(until deadline: ContinuousClock.Instant) -> Double? {
        let left = (deadline - .now).inSeconds
        return left > 0 ? left : nil
    }
}
