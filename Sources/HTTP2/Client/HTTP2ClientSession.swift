import HTTPContract
import CNative

/// One nghttp2 client session, driven as bytes in, bytes out (no I/O here): `receive` feeds what the socket read,
/// `drainOutput` produces what the socket must write. Callbacks only record; the owner takes `completions` after
/// each call. (The same shape as the server's `HTTP2ServerSession`.)
///
/// Not thread-safe: one session belongs to one thread.
final class HTTP2ClientSession {
    private struct StreamState {
        var tag: Int
        var status: Int?
        var headers: [HeaderField] = []
        var body: [UInt8] = []
        var ended = false
    }

    private var session: OpaquePointer?
    private var streams: [Int32: StreamState] = [:]
    private var outgoingBodies = OutgoingBodies()
    /// The header block of the request being submitted, reused from one request to the next.
    private var requestFields = NameValueBuffer()
    /// Finished streams since the last `takeCompletions`, in the order they finished.
    private var completions: [(tag: Int, result: Result<HTTP2Response, HTTP2StreamFailure>)] = []
    private(set) var goAway: HTTP2GoAway?
    /// The server's SETTINGS_MAX_CONCURRENT_STREAMS once its first SETTINGS frame arrived.
    private(set) var remoteMaxConcurrentStreams: Int?
    private(set) var settingsFramesReceived = 0
    /// Set when nghttp2 reported a fatal error.
    private(set) var fatalError: String?

    init() {
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onData)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrame)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onClose)
        nghttp2_session_callbacks_set_on_frame_not_send_callback(callbacks, onNotSent)
        nghttp2_session_client_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque())
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 20),
        ]
        nghttp2_submit_settings(session, 0, &settings, settings.count)
    }

    deinit { nghttp2_session_del(session) }

    /// Streams submitted and not finished.
    var openStreamCount: Int { streams.count }
    var openTags: [Int] { streams.values.map(\.tag) }

    /// Queues a request; the stream id, or a failure when the session takes no new streams (after GOAWAY).
    func submit(_ request: HTTP2Request, authority: String, scheme: String, tag: Int) -> Result<Int32, HTTP2StreamFailure> {
        requestFields.removeAll()
        requestFields.append(name: ":method", value: request.method)
        requestFields.append(name: ":scheme", value: scheme)
        requestFields.append(name: ":authority", value: authority)
        requestFields.append(name: ":path", value: request.path)
        for header in request.headers { requestFields.append(name: header.name, value: header.value) }
        let hasBody = !request.body.isEmpty
        let streamID = requestFields.withNameValues { nva -> Int32 in
            guard hasBody else { return nghttp2_submit_request(session, nil, nva.baseAddress, nva.count, nil, nil) }
            var provider = nghttp2_data_provider()
            provider.read_callback = readBodyCallback
            return nghttp2_submit_request(session, nil, nva.baseAddress, nva.count, &provider, nil)
        }
        guard streamID > 0 else {
            let message = String(cString: nghttp2_strerror(streamID))
            return .failure(HTTP2StreamFailure(.refused, "not sent: \(message)"))
        }
        if hasBody { outgoingBodies[streamID] = request.body }
        streams[streamID] = StreamState(tag: tag)
        return .success(streamID)
    }

    /// Cancels a stream (RST_STREAM CANCEL) and reports it with `failure`.
    func cancel(streamID: Int32, failure: HTTP2StreamFailure) {
        guard let state = streams.removeValue(forKey: streamID) else { return }
        outgoingBodies[streamID] = nil
        nghttp2_submit_rst_stream(session, 0, streamID, NGHTTP2_CANCEL.rawValue)
        completions.append((state.tag, .failure(failure)))
    }

    /// Every open stream, for when the connection is gone: reported with `failure` (or `refused` when above the
    /// GOAWAY's last stream id).
    func failAll(_ failure: HTTP2StreamFailure) {
        for (streamID, state) in streams.sorted(by: { $0.key < $1.key }) {
            if let goAway, streamID > goAway.lastStreamID {
                completions.append((state.tag, .failure(HTTP2StreamFailure(.refused, "not processed: the server sent GOAWAY (last stream \(goAway.lastStreamID))"))))
            } else {
                completions.append((state.tag, .failure(failure)))
            }
        }
        streams.removeAll()
        outgoingBodies.removeAll()
    }

    func streamID(forTag tag: Int) -> Int32? { streams.first { $0.value.tag == tag }?.key }

    func takeCompletions() -> [(tag: Int, result: Result<HTTP2Response, HTTP2StreamFailure>)] {
        defer { completions.removeAll() }
        return completions
    }

    /// Feeds received bytes; false on a fatal protocol error (`fatalError` says which).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard fatalError == nil else { return false }
        let consumed = nghttp2_session_mem_recv(session, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        if consumed < 0 {
            fatalError = String(cString: nghttp2_strerror(Int32(truncatingIfNeeded: consumed)))
            return false
        }
        return true
    }

    /// Appends what nghttp2 wants to send.
    func drainOutput(into buffer: inout [UInt8]) {
        guard fatalError == nil else { return }
        while true {
            var chunk: UnsafePointer<UInt8>?
            let length = nghttp2_session_mem_send(session, &chunk)
            if length < 0 {
                fatalError = String(cString: nghttp2_strerror(Int32(truncatingIfNeeded: length)))
                return
            }
            guard length > 0, let chunk else { return }
            buffer.append(contentsOf: UnsafeBufferPointer(start: chunk, count: length))
        }
    }

    /// True while nghttp2 still expects to read or write (false once GOAWAY finished everything).
    var isAlive: Bool { nghttp2_session_want_read(session) != 0 || nghttp2_session_want_write(session) != 0 }

    /// Says goodbye (GOAWAY NO_ERROR) before the owner closes the socket.
    func terminate() { nghttp2_session_terminate_session(session, NGHTTP2_NO_ERROR.rawValue) }

    // MARK: - callback targets

    fileprivate func header(streamID: Int32, name: String, value: String) {
        guard streams[streamID] != nil else { return }
        if name == ":status" {
            streams[streamID]?.status = Int(value)
        } else if !name.hasPrefix(":") {
            streams[streamID]?.headers.append(HeaderField(name, value))
        }
    }

    fileprivate func data(streamID: Int32, bytes: UnsafeBufferPointer<UInt8>) {
        streams[streamID]?.body.append(contentsOf: bytes)
    }

    fileprivate func frame(_ frame: UnsafePointer<nghttp2_frame>) {
        let header = frame.pointee.hd
        let endStream = header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        switch UInt32(header.type) {
        case NGHTTP2_SETTINGS.rawValue where header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0:
            settingsFramesReceived += 1
            remoteMaxConcurrentStreams = Int(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS))
        case NGHTTP2_GOAWAY.rawValue:
            let frame = frame.pointee.goaway
            goAway = HTTP2GoAway(
                lastStreamID: frame.last_stream_id, errorCode: frame.error_code,
                debugData: frame.opaque_data_len > 0 ? Array(UnsafeBufferPointer(start: frame.opaque_data, count: frame.opaque_data_len)) : [])
        case NGHTTP2_DATA.rawValue, NGHTTP2_HEADERS.rawValue:
            if endStream, streams[header.stream_id]?.status != nil { streams[header.stream_id]?.ended = true }
        default:
            break
        }
    }

    fileprivate func closed(streamID: Int32, errorCode: UInt32) {
        outgoingBodies[streamID] = nil
        guard let state = streams.removeValue(forKey: streamID) else { return }
        if state.ended, let status = state.status {
            completions.append((state.tag, .success(HTTP2Response(status: status, headers: state.headers, body: state.body))))
        } else if errorCode == NGHTTP2_REFUSED_STREAM.rawValue {
            let why = goAway.map { "not processed: the server sent GOAWAY (last stream \($0.lastStreamID))" }
                ?? "not processed: the server refused the stream (REFUSED_STREAM)"
            completions.append((state.tag, .failure(HTTP2StreamFailure(.refused, why))))
        } else {
            let name = String(cString: nghttp2_http2_strerror(errorCode))
            completions.append((state.tag, .failure(HTTP2StreamFailure(.reset(errorCode), "the server reset the stream (\(name))"))))
        }
    }

    fileprivate func notSent(streamID: Int32, errorCode: Int32) {
        outgoingBodies[streamID] = nil
        guard let state = streams.removeValue(forKey: streamID) else { return }
        let message = String(cString: nghttp2_strerror(errorCode))
        completions.append((state.tag, .failure(HTTP2StreamFailure(.refused, "not sent: \(message)"))))
    }

    fileprivate func readBody(streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, capacity: Int, flags: UnsafeMutablePointer<UInt32>) -> Int {
        outgoingBodies.read(streamID: streamID, into: buffer, capacity: capacity, flags: flags)
    }
}

private func owner(_ userData: UnsafeMutableRawPointer?) -> HTTP2ClientSession {
    Unmanaged<HTTP2ClientSession>.fromOpaque(userData!).takeUnretainedValue()
}

private let onHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, userData in
    guard let frame, let name, let value else { return 0 }
    owner(userData).header(
        streamID: frame.pointee.hd.stream_id,
        name: String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
        value: String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self))
    return 0
}

private let onData: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
    guard let data else { return 0 }
    owner(userData).data(streamID: streamID, bytes: UnsafeBufferPointer(start: data, count: length))
    return 0
}

private let onFrame: nghttp2_on_frame_recv_callback = { _, frame, userData in
    guard let frame else { return 0 }
    owner(userData).frame(frame)
    return 0
}

private let onClose: nghttp2_on_stream_close_callback = { _, streamID, errorCode, userData in
    owner(userData).closed(streamID: streamID, errorCode: errorCode)
    return 0
}

private let onNotSent: nghttp2_on_frame_not_send_callback = { _, frame, errorCode, userData in
    guard let frame, UInt32(frame.pointee.hd.type) == NGHTTP2_HEADERS.rawValue else { return 0 }
    owner(userData).notSent(streamID: frame.pointee.hd.stream_id, errorCode: errorCode)
    return 0
}

private let readBodyCallback: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, userData in
    guard let buffer, let flags else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
    return owner(userData).readBody(streamID: streamID, into: buffer, capacity: length, flags: flags)
}
