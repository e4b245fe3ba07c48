import HTTPContract
import CNative
@testable import HTTP2

/// An nghttp2 CLIENT session paired in memory with an `HTTP2ServerSession`: bytes are shuttled both ways until
/// neither side has anything to say. Records responses per stream and the control frames the server sent.
final class InMemoryClient {
    struct Response {
        var status: Int?
        var headers: [HeaderField] = []
        var body: [UInt8] = []
        var dataFrames = 0
        var ended = false
        var resetCode: UInt32?
    }

    struct GoAway: Equatable {
        var lastStreamID: Int32
        var errorCode: UInt32
        var debugData: [UInt8]
    }

    private var session: OpaquePointer?
    private var bodies: [Int32: (bytes: [UInt8], offset: Int)] = [:]
    var responses: [Int32: Response] = [:]
    /// Every SETTINGS frame the server sent (not ACKs), as (id, value) pairs.
    var settingsFrames: [[(id: Int32, value: UInt32)]] = []
    var goAways: [GoAway] = []
    var pingAcks = 0
    var frameTypesReceived: [UInt8] = []

    init() {
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_header_callback(callbacks, clientOnHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, clientOnData)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, clientOnFrame)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, clientOnClose)
        nghttp2_session_client_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque())
        var entry = nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: 100)
        nghttp2_submit_settings(session, 0, &entry, 1)
    }

    deinit { nghttp2_session_del(session) }

    /// Submits a request; `chunks` become separate DATA frames (nil body: HEADERS with END_STREAM).
    @discardableResult
    func request(path: String, headers: [(String, String)] = [], chunks: [[UInt8]]? = nil, method: String = "POST",
                 authority: String? = "localhost") -> Int32 {
        var fields: [(String, String)] = [(":method", method), (":scheme", "https"), (":path", path)]
        if let authority { fields.append((":authority", authority)) }
        fields += headers
        let streamID = withClientNameValues(fields) { nva -> Int32 in
            guard chunks != nil else {
                return nghttp2_submit_request(session, nil, nva.baseAddress, nva.count, nil, nil)
            }
            var provider = nghttp2_data_provider()
            provider.read_callback = clientReadBody
            return nghttp2_submit_request(session, nil, nva.baseAddress, nva.count, &provider, nil)
        }
        if let chunks {
            bodies[streamID] = (chunks.flatMap { $0 }, 0)
            chunkSizes[streamID] = chunks.map(\.count)
        }
        responses[streamID] = Response()
        return streamID
    }

    private var chunkSizes: [Int32: [Int]] = [:]

    /// Opens a request stream with HEADERS only, without END_STREAM: the request stays incomplete.
    @discardableResult
    func openRequest(path: String) -> Int32 {
        let fields = [(":method", "POST"), (":scheme", "https"), (":path", path), (":authority", "localhost")]
        let streamID = withClientNameValues(fields) { nva in
            nghttp2_submit_headers(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), -1, nil, nva.baseAddress, nva.count, nil)
        }
        responses[streamID] = Response()
        return streamID
    }

    func ping() { nghttp2_submit_ping(session, 0, nil) }
    func priority(streamID: Int32) {
        var spec = nghttp2_priority_spec()
        nghttp2_priority_spec_init(&spec, 0, 32, 0)
        nghttp2_submit_priority(session, 0, streamID, &spec)
    }
    func reset(streamID: Int32) { nghttp2_submit_rst_stream(session, 0, streamID, NGHTTP2_CANCEL.rawValue) }

    /// Raw bytes to send (client preface and frames).
    func output() -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            var chunk: UnsafePointer<UInt8>?
            let length = nghttp2_session_mem_send(session, &chunk)
            guard length > 0 else { break }
            bytes.append(contentsOf: UnsafeBufferPointer(start: chunk, count: length))
        }
        return bytes
    }

    func input(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBufferPointer { nghttp2_session_mem_recv(session, $0.baseAddress, $0.count) }
    }

    // MARK: - callback targets

    fileprivate func readBody(streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, capacity: Int, flags: UnsafeMutablePointer<UInt32>) -> Int {
        guard let pending = bodies[streamID] else {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            return 0
        }
        // One configured chunk per DATA frame.
        var sizes = chunkSizes[streamID] ?? []
        let next = sizes.isEmpty ? pending.bytes.count - pending.offset : sizes.removeFirst()
        chunkSizes[streamID] = sizes
        let count = min(capacity, next)
        pending.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + pending.offset, count: count) }
        bodies[streamID] = (pending.bytes, pending.offset + count)
        if pending.offset + count >= pending.bytes.count {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            bodies[streamID] = nil
        }
        return count
    }

    fileprivate func header(streamID: Int32, name: String, value: String) {
        if name == ":status" { responses[streamID, default: Response()].status = Int(value) } else {
            responses[streamID, default: Response()].headers.append(HeaderField(name, value))
        }
    }

    fileprivate func data(streamID: Int32, bytes: UnsafeBufferPointer<UInt8>) {
        responses[streamID, default: Response()].body.append(contentsOf: bytes)
    }

    fileprivate func frame(_ frame: UnsafePointer<nghttp2_frame>) {
        let type = frame.pointee.hd.type
        frameTypesReceived.append(type)
        let streamID = frame.pointee.hd.stream_id
        let endStream = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        switch UInt32(type) {
        case NGHTTP2_SETTINGS.rawValue where frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0:
            let settings = frame.pointee.settings
            settingsFrames.append((0..<settings.niv).map { (settings.iv[$0].settings_id, settings.iv[$0].value) })
        case NGHTTP2_GOAWAY.rawValue:
            let goAway = frame.pointee.goaway
            goAways.append(GoAway(
                lastStreamID: goAway.last_stream_id, errorCode: goAway.error_code,
                debugData: Array(UnsafeBufferPointer(start: goAway.opaque_data, count: goAway.opaque_data_len))))
        case NGHTTP2_PING.rawValue where frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0:
            pingAcks += 1
        case NGHTTP2_DATA.rawValue:
            responses[streamID, default: Response()].dataFrames += 1
            if endStream { responses[streamID, default: Response()].ended = true }
        case NGHTTP2_HEADERS.rawValue where endStream:
            responses[streamID, default: Response()].ended = true
        case NGHTTP2_RST_STREAM.rawValue:
            responses[streamID, default: Response()].resetCode = frame.pointee.rst_stream.error_code
        default:
            break
        }
    }
}

/// Moves bytes between a client and a server session until both are quiet; `onRequests` sees the server's
/// completed requests after each `receive` (outside nghttp2's stack, as the connection driver does).
func shuttle(_ client: InMemoryClient, _ server: HTTP2ServerSession, rounds: Int = 50,
             onEvents: (HTTP2ServerSession.Event) -> Void = { _ in }) {
    for _ in 0..<rounds {
        let toServer = client.output()
        if !toServer.isEmpty {
            toServer.withUnsafeBytes { _ = server.receive($0) }
            for event in server.takeEvents() { onEvents(event) }
        }
        var toClient: [UInt8] = []
        server.drainOutput(into: &toClient)
        if !toClient.isEmpty { client.input(toClient) }
        if toServer.isEmpty && toClient.isEmpty { return }
    }
}

private func withClientNameValues<R>(_ fields: [(String, String)], _ body: (UnsafeMutableBufferPointer<nghttp2_nv>) -> R) -> R {
    var storage: [UnsafeMutablePointer<UInt8>] = []
    defer { storage.forEach { $0.deallocate() } }
    var nva: [nghttp2_nv] = fields.map { name, value in
        let namePointer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(name.utf8.count, 1))
        namePointer.initialize(from: Array(name.utf8), count: name.utf8.count)
        let valuePointer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(value.utf8.count, 1))
        valuePointer.initialize(from: Array(value.utf8), count: value.utf8.count)
        storage += [namePointer, valuePointer]
        return nghttp2_nv(name: namePointer, value: valuePointer, namelen: name.utf8.count, valuelen: value.utf8.count,
                          flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
    }
    return nva.withUnsafeMutableBufferPointer { body($0) }
}

private func client(_ userData: UnsafeMutableRawPointer?) -> InMemoryClient {
    Unmanaged<InMemoryClient>.fromOpaque(userData!).takeUnretainedValue()
}

private let clientOnHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, userData in
    guard let frame, let name, let value else { return 0 }
    client(userData).header(
        streamID: frame.pointee.hd.stream_id,
        name: String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
        value: String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self))
    return 0
}

private let clientOnData: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
    guard let data else { return 0 }
    client(userData).data(streamID: streamID, bytes: UnsafeBufferPointer(start: data, count: length))
    return 0
}

private let clientOnFrame: nghttp2_on_frame_recv_callback = { _, frame, userData in
    guard let frame else { return 0 }
    client(userData).frame(frame)
    return 0
}

private let clientOnClose: nghttp2_on_stream_close_callback = { _, _, _, _ in 0 }

private let clientReadBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, userData in
    guard let buffer, let flags else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
    return client(userData).readBody(streamID: streamID, into: buffer, capacity: length, flags: flags)
}
