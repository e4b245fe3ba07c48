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

/// Runs `body` with an `nghttp2_nv` array over copies of `fields` (nghttp2's submit functions copy names and
/// values, so the copies go when `body` returns).
public func withNameValues<R>(
    _ fields: [(name: String, value: String)], _ body: (UnsafeMutableBufferPointer<nghttp2_nv>) -> R
) -> R {
    var storage: [UnsafeMutablePointer<UInt8>] = []
    defer { storage.forEach { $0.deallocate() } }
    func copy(_ text: String) -> (pointer: UnsafeMutablePointer<UInt8>, count: Int) {
        let bytes = Array(text.utf8)
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        pointer.initialize(from: bytes, count: bytes.count)
        storage.append(pointer)
        return (pointer, bytes.count)
    }
    var nva: [nghttp2_nv] = []
    nva.reserveCapacity(fields.count)
    for field in fields {
        let name = copy(field.name)
        let value = copy(field.value)
        nva.append(nghttp2_nv(
            name: name.pointer, value: value.pointer, namelen: name.count, valuelen: value.count,
            flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
    }
    return nva.withUnsafeMutableBufferPointer { body($0) }
}
