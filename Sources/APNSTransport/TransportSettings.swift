import HTTPContract

/// The HTTP/2 parameters the server announces and enforces. Defaults are APNs' own SETTINGS as observed on the
/// wire: HEADER_TABLE_SIZE 4096, MAX_CONCURRENT_STREAMS 1000, INITIAL_WINDOW_SIZE 65535, MAX_FRAME_SIZE 16384,
/// MAX_HEADER_LIST_SIZE 8000. Source: apns-protocol.md §1.3 [OBS] (pushy#878 log, 2021; Go http2debug log, 2016).
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

    public init() {}
}
