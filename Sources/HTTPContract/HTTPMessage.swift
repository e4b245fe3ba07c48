/// One header field as it arrived or will be sent: name lower-cased (HTTP/2 requires it), value as bytes decoded
/// leniently as UTF-8. Order and duplicates are preserved because `DuplicateHeaders` depends on them.
public struct HeaderField: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A complete HTTP/2 request as the transport hands it to the application: pseudo-headers split out, regular
/// headers in arrival order including duplicates, and the body (at most `bodyLimit` bytes are kept; `bodyLength`
/// counts every byte that arrived).
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    public var scheme: Optional<String>
    /// `:authority`, or the `host` header when a client (aioapns) sends that instead.
    public var authority: Optional<String>
    public var headers: [HeaderField]
    public var body: [UInt8]
    /// Total bytes received in DATA frames; larger than `body.count` when the body exceeded the buffering limit.
    public var bodyLength: Int
    public var streamID: Int32
    public var connection: ConnectionInfo
    /// Wall-clock receive time of the request's first HEADERS frame.
    public var receivedAt: Timestamp

    @inlinable
    public init(
        method: String, path: String, scheme: String? = "https", authority: String? = nil,
        headers: [HeaderField] = [], body: [UInt8] = [], bodyLength: Int? = nil, streamID: Int32 = 1,
        connection: ConnectionInfo = .inMemory, receivedAt: Timestamp = .zero
    ) {
        self.method = method
        self.path = path
        self.scheme = scheme
        self.authority = authority
        self.headers = headers
        self.body = body
        self.bodyLength = bodyLength ?? body.count
        self.streamID = streamID
        self.connection = connection
        self.receivedAt = receivedAt
    }

    /// Every value of the header `name` (lower-case), in arrival order.
    public func values(_ name: String) -> [String] {
        var found: [String] = []  // one pass, and no array at all when the header is absent
        for header in headers where header.name == name { found.append(header.value) }
        return found
    }

    /// The first value of the header `name` (lower-case).
    public func value(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}

/// What the application answers: status, regular headers and an optional body (sent as one DATA frame).
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [HeaderField]
    public var body: [UInt8]

    public init(status: Int, headers: [HeaderField] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func value(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
