import HTTPContract

/// The HTTP/2 parameters the server announces and enforces. Defaults are APNs' own SETTINGS as observed on the
/// wire: HEADER_TABLE_SIZE 4096, MAX_CONCURRENT_STREAMS 1000, INITIAL_WINDOW_SIZE 65535, MAX_FRAME_SIZE 16384,
/// MAX_HEADER_LIST_SIZE 8000. Source: A-CONN [OBS] (pushy#878 log, 2021; Go http2debug log, 2016).
public struct TransportSettings: Sendable, Equatable {
    public var headerTableSize: UInt32 = 4096
    public var initialWindowSize: UInt32 = 65535
    public var maxFrameSize: UInt32 = 16384
    public var maxHeaderListSize: UInt32 = 8000
    /// Request bodies are buffered up to this many bytes; a larger body is handed to the application at once,
    /// truncated (its `bodyLength` says how much arrived), so it can be refused (413) without being kept.
    public var requestBodyLimit: Int = 64 * 1024
    /// Stop reading from a client whose unsent output exceeds this (a client that does not read).
    public var outputHighWatermark: Int = 1 << 20
    /// A connection whose TLS handshake and HTTP/2 client preface are not complete after this many seconds is
    /// closed (docs/reliability.md).
    public var handshakeTimeout: Double = 10
    /// A connection with no open stream that has received nothing for this many seconds gets GOAWAY(NO_ERROR) and
    /// is closed. APNs keeps idle connections at least an hour (A-SEND: PING "after an hour of inactivity").
    public var idleTimeout: Double = 7200
    /// A stream whose request has not ended (END_STREAM) this many seconds after its HEADERS is reset with
    /// RST_STREAM(CANCEL) and its buffered body dropped.
    public var incompleteStreamTimeout: Double = 30
    /// Once the server has said all it will say on a connection (GOAWAY and its streams finished, an idle timeout,
    /// shutdown, a protocol error), it shuts down its write side (after TLS close_notify) and reads and discards what
    /// the client still sends until the client closes, for at most this many seconds; then it closes. Closing at
    /// once with client bytes unread makes the kernel reset the connection and drop answers already written
    /// (RFC 9113 §6.8, RFC 9112 §9.6).
    public var closeLingerTimeout: Double = 2
    /// Request-body bytes one connection may hold buffered across its unfinished streams; DATA beyond it resets
    /// that stream with RST_STREAM(REFUSED_STREAM), which senders retry.
    public var connectionBodyBufferLimit: Int = 8 << 20
    /// The same across every connection of the server.
    public var totalBodyBufferLimit: Int = 256 << 20

    public init() {}
}
