import HTTPContract

/// One request to send on an HTTP/2 connection. `:scheme` and `:authority` come from the connection.
public struct HTTP2Request: Sendable, Equatable {
    public var method: String
    public var path: String
    /// Regular headers, lower-case names, in the order they are sent.
    public var headers: [HeaderField]
    public var body: [UInt8]

    public init(method: String = "POST", path: String, headers: [HeaderField] = [], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    public func value(_ name: String) -> String? { headers.first { $0.name == name }?.value }
}

/// A complete answer on one stream: the same value the server side answers with.
public typealias HTTP2Response = HTTPResponse

/// Why a request got no answer.
public struct HTTP2StreamFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server did not process it (RST_STREAM REFUSED_STREAM, or a stream above GOAWAY's last stream id,
        /// or never sent): safe to send again, on a new connection after a GOAWAY.
        case refused
        /// Reset by the server with this HTTP/2 error code.
        case reset(UInt32)
        /// The connection ended while the request was in flight: it may or may not have been delivered.
        case connectionLost
        /// No answer within the time allowed.
        case timedOut
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// True when the server certainly did not act on the request.
    public var notProcessed: Bool { kind == .refused }

    public var description: String { message }
}

/// A GOAWAY frame as received.
public struct HTTP2GoAway: Sendable, Equatable {
    public var lastStreamID: Int32
    public var errorCode: UInt32
    public var debugData: [UInt8]

    /// The `reason` of APNs' JSON debug data (`{"reason":"Shutdown"}`, A-SEND), or the debug text.
    public var reason: String? {
        let text = String(decoding: debugData, as: UTF8.self)
        if let range = text.range(of: #""reason":""#), let end = text[range.upperBound...].firstIndex(of: "\"") {
            return String(text[range.upperBound..<end])
        }
        return text.isEmpty ? nil : text
    }
}

/// Errors that stop a connection from being made or used.
public enum HTTP2ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// TCP connect failed (refused, unreachable, no such host).
    case connect(String)
    /// TLS failed (handshake, certificate).
    case tls(String)
    /// The server does not speak HTTP/2 (ALPN chose another protocol, or it answered in HTTP/1.x).
    case notHTTP2(String)
    /// nghttp2 refused the session or the peer broke the protocol.
    case protocolError(String)
    /// The connection closed before it could be used.
    case closed(String)

    public var description: String {
        switch self {
        case .connect(let message): return "cannot connect: \(message)"
        case .tls(let message): return "TLS: \(message)"
        case .notHTTP2(let message): return "not HTTP/2: \(message)"
        case .protocolError(let message): return "HTTP/2 protocol error: \(message)"
        case .closed(let message): return "connection closed: \(message)"
        }
    }
}
