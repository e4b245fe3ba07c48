import CNative

/// The bodies a session has submitted and nghttp2 has not read yet, by stream: what the data-source read callback
/// (`nghttp2_data_provider.read_callback`) of the server's responses and the client's requests copies from.
public struct OutgoingBodies {
    private var pending: [Int32: (bytes: [UInt8], offset: Int)] = [:]

    public init() {}

    /// The body still to send on `streamID` (from its start when set); nil once sent or dropped.
    public subscript(streamID: Int32) -> [UInt8]? {
        get { pending[streamID].map { Array($0.bytes[$0.offset...]) } }
        set { pending[streamID] = newValue.map { ($0, 0) } }
    }

    public mutating func removeAll() { pending.removeAll() }

    /// No body is waiting.
    public var isEmpty: Bool { pending.isEmpty }

    /// Copies up to `capacity` bytes of the stream's body into `buffer`; sets `NGHTTP2_DATA_FLAG_EOF` with the last
    /// of them (or at once when the stream has no body left) and forgets the body. Returns the bytes copied.
    public mutating func read(
        streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, capacity: Int, flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let body = pending[streamID] else {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            return 0
        }
        let count = min(capacity, body.bytes.count - body.offset)
        body.bytes.withUnsafeBufferPointer { source in
            buffer.update(from: source.baseAddress! + body.offset, count: count)
        }
        if body.offset + count >= body.bytes.count {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            pending[streamID] = nil
        } else {
            pending[streamID] = (body.bytes, body.offset + count)
        }
        return count
    }
}
