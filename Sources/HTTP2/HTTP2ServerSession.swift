import HTTPContract
import CNative
import Dispatch
import Foundation

/// One server-side nghttp2 session, driven as bytes in, bytes out: `receive` feeds what the socket read,
/// `drainOutput` produces what the socket must write. No I/O happens here, so tests pair it with a client session
/// in memory.
///
/// Re-entrancy: nghttp2 calls back into this object while `nghttp2_session_mem_recv`/`mem_send` are on the stack.
/// Callbacks only record (`events`, stream state); the owner acts on completed requests after `receive` returns,
/// and submissions (`respond`, `apply`) are refused while nghttp2 is on the stack. (Pattern: swift-nio-http2's
/// last nghttp2-based `NGHTTP2Session`.)
///
/// Not thread-safe: one session belongs to one event-loop thread.
///
/// Exclusivity: Swift's checks stay on. A release build drops the run-time check of a stored property (a
/// `swift_beginAccess`, ~70 instructions) when no access to it anywhere in the module can overlap another
/// (whole-module analysis), so this file, `StreamState`, `SpareStreams`, `ConnectionDriver` and `EventLoopWorker`
/// keep it provable: no access stays open across a call into nghttp2, libevent or the application, and an array,
/// set or dictionary changed in place (which may reallocate and release its old storage) is moved into a local
/// first and back after.
final class HTTP2ServerSession {
    enum Event {
        /// A request is complete (END_STREAM) or its body passed `requestBodyLimit`.
        case request(HTTPRequest)
        /// The request's header list is larger than the advertised MAX_HEADER_LIST_SIZE. Netty (APNs' front end,
        /// A-CONN) answers such a stream with a bare 431; the request never reaches the application.
        case headerListTooLarge(streamID: Int32, size: Int)
    }

    /// Work done on header fields, for tests that check a large header block costs linear work: every field seen,
    /// and those kept (decoded and stored; bounded by the header-list limit).
    private(set) var headerFieldsSeen = 0
    private(set) var headerFieldsKept = 0

    private let session: OpaquePointer?
    /// Long header values of recent requests, reused when repeated (`RecentHeaderValues`).
    private let recentValues = RecentHeaderValues()
    /// The last `:path`: repeated by a sender to one device token, new on every request to many (kept apart so
    /// that it does not push the other values out of `recentValues`).
    private let recentPaths = RecentHeaderValues(capacity: 1)
    /// The open streams' states, newest first, linked through the states themselves (`StreamState.next`): a stream
    /// is added and removed without a dictionary's hashing of its id, and found by id through nghttp2's stream user
    /// data (`beginHeaders`).
    private var openStreams: StreamState?
    private(set) var openStreamCount = 0
    /// Closed streams' objects, reused for new streams (shared by the sessions of one event-loop thread).
    private let spareStreams: SpareStreams
    /// The stream whose header block is arriving: nghttp2 delivers a block's fields one after another, so each
    /// field finds its stream here instead of by a dictionary lookup (two per field).
    /// Unretained (a retain and a release per header field otherwise): `openStreams` holds the state until nghttp2
    /// closes the stream, and `streamClosed` forgets it here first. Stream id 0 (never a request's): none.
    private var headerBlockStreamID: Int32 = 0
    private var headerBlockState: Unmanaged<StreamState>?
    /// Shared by every session of a server (`totalBodyBufferLimit`).
    private let bodyBudget: BodyBufferBudget
    /// Body bytes this connection holds (`connectionBodyBufferLimit`).
    private(set) var bufferedBodyBytes = 0
    /// Streams to reset with REFUSED_STREAM once nghttp2 is off the stack (their DATA passed a body cap).
    private var streamsToRefuse: [Int32] = []
    /// The header block of the response being submitted, reused from one response to the next.
    private let responseFields = NameValueBuffer()
    /// The last value sent for each response field name on this connection (`worthIndexing`), for the first
    /// `rememberedResponseNames` names.
    private var lastSentValues: [(name: String, value: String)] = []
    static let rememberedResponseNames = 16
    /// Response bodies waiting for nghttp2 to pull them through the data provider.
    private var outgoingBodies = OutgoingBodies()
    /// What `forEachEvent` hands over next: completed streams are queued as their state objects and become an
    /// `HTTPRequest` only as each is handed over (built once, lent to the owner, never copied into a queue).
    private var events: [QueuedEvent] = []
    private var eventsBeingHandled: [QueuedEvent] = []
    private var insideNGHTTP2 = false

    private enum QueuedEvent {
        /// A dispatched stream; `bodyLength` as counted at dispatch.
        case request(streamID: Int32, stream: StreamState, bodyLength: Int)
        case headerListTooLarge(streamID: Int32, size: Int)
    }
    /// Streams answered early (body over the limit) that may still receive DATA: once the response's END_STREAM
    /// has been sent (`responseEnded`), they are reset with NO_ERROR.
    private var streamsToResetAfterResponse: Set<Int32> = []
    private var responseEnded: Set<Int32> = []
    /// GOAWAYs that accompany a response: sent once that response's END_STREAM is out, so that the response's DATA
    /// does not follow the GOAWAY (strict clients such as Python h2 refuse frames after GOAWAY).
    private var goAwayAfterResponse: [Int32: (errorCode: UInt32, debugData: [UInt8], lastStreamID: Int32?)] = [:]
    private var goAwayReady: [(errorCode: UInt32, debugData: [UInt8], lastStreamID: Int32?)] = []

    let connection: ConnectionInfo
    let settings: TransportSettings
    private let now: () -> Timestamp
    private(set) var maxConcurrentStreams: UInt32

    /// Set when nghttp2 reported a fatal error; the connection must be closed after the output is flushed.
    private(set) var fatalError: String?

    init(connection: ConnectionInfo, settings: TransportSettings, maxConcurrentStreams: UInt32,
         bodyBudget: BodyBufferBudget? = nil, spareStreams: SpareStreams = SpareStreams(limit: 32),
         now: @escaping () -> Timestamp) {
        self.spareStreams = spareStreams
        self.bodyBudget = bodyBudget ?? BodyBufferBudget(limit: settings.totalBodyBufferLimit)
        self.connection = connection
        self.settings = settings
        self.now = now
        self.maxConcurrentStreams = maxConcurrentStreams

        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_invalid_header_callback(callbacks, onInvalidHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameRecv)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, onFrameSend)

        var option: OpaquePointer?
        nghttp2_option_new(&option)
        defer { nghttp2_option_del(option) }
        // `authorization: bearer ` (trailing space) must reach the APNs rules, which answer with an APNs reason;
        // nghttp2's RFC 9113 check would reset the stream first.
        nghttp2_option_set_no_rfc9113_leading_and_trailing_ws_validation(option, 1)

        var session: OpaquePointer?
        nghttp2_session_server_new2(&session, callbacks, nil, option)
        self.session = session
        // Set once the session is stored (it is a constant, so `self` is complete only then).
        nghttp2_session_set_user_data(session, Unmanaged.passUnretained(self).toOpaque())
        submitInitialSettings()
    }

    deinit {
        // Unlinked one by one, so that a long list is not released recursively.
        while let stream = openStreams {
            releaseBody(of: stream)
            openStreams = stream.next
            stream.next = nil
            openStreams?.previous = nil
        }
        nghttp2_session_del(session)
    }

    // MARK: - Driving the session

    /// Feeds bytes read from the socket. Returns false when the connection is broken beyond repair (nghttp2 queued
    /// a GOAWAY where it could; flush the output, then close).
    @discardableResult
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard fatalError == nil, let base = bytes.baseAddress, bytes.count > 0 else { return fatalError == nil }
        insideNGHTTP2 = true
        let result = nghttp2_session_mem_recv(session, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        insideNGHTTP2 = false
        if result < 0 {
            fatalError = String(cString: nghttp2_strerror(Int32(result)))
            return false
        }
        if !streamsToRefuse.isEmpty {
            let refused = streamsToRefuse
            streamsToRefuse = []
            for streamID in refused {
                _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, NGHTTP2_REFUSED_STREAM.rawValue)
            }
        }
        return true
    }

    /// Resets every stream whose request began before `cutoff` (monotonic nanoseconds) and has not ended, with
    /// RST_STREAM(CANCEL), dropping its buffered body. Returns how many were reset.
    @discardableResult
    func resetIncompleteStreams(startedBefore cutoff: UInt64) -> Int {
        precondition(!insideNGHTTP2)
        var count = 0
        for stream in incompleteStreams where stream.startedAt < cutoff {
            refuse(stream)
            _ = nghttp2_submit_rst_stream(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.streamID, NGHTTP2_CANCEL.rawValue)
            count += 1
        }
        return count
    }

    /// When the oldest unfinished request began (monotonic nanoseconds), or nil when none is unfinished.
    var oldestIncompleteStreamStart: UInt64? {
        incompleteStreams.lazy.map { $0.startedAt }.min()
    }

    /// The open streams whose request has not ended (neither dispatched nor refused). Each stream's successor is
    /// read before the stream is handed out, so the caller may take it out of the list (`refuse`).
    private var incompleteStreams: some Sequence<StreamState> {
        sequence(state: openStreams) { next -> StreamState? in
            while let stream = next {
                next = stream.next
                if !stream.dispatched && !stream.refused { return stream }
            }
            return nil
        }
    }

    /// Completed requests since the last call, in arrival order.
    func takeEvents() -> [Event] {
        var taken: [Event] = []
        forEachEvent { taken.append($0) }
        return taken
    }

    /// Runs `body` on each request completed since the last call, in arrival order. The event array changes
    /// places with a second one, so both keep their storage (no array allocated per read). Each request is built
    /// once and handed to `body` to keep (`consuming`): no copy of it (a retain and a release of each of its
    /// strings and arrays), as iterating the stored array made, and no destroy here.
    func forEachEvent(_ body: (consuming Event) -> Void) {
        guard !events.isEmpty else { return }
        var batch: [QueuedEvent] = []
        swap(&batch, &eventsBeingHandled)
        swap(&events, &batch)
        for index in batch.indices {
            switch batch[index] {
            case .request(let streamID, let stream, let bodyLength):
                body(.request(handOver(stream, streamID: streamID, bodyLength: bodyLength)))
            case .headerListTooLarge(let streamID, let size):
                body(.headerListTooLarge(streamID: streamID, size: size))
            }
        }
        batch.removeAll(keepingCapacity: true)
        swap(&batch, &eventsBeingHandled)
    }

    /// The request of a dispatched stream, as it stood when it was dispatched: its fields and body do not change
    /// after that (`header` and `dataChunk` keep nothing more for a dispatched stream), and `bodyLength` is the
    /// count at dispatch. A stream closed meanwhile was kept out of the spares (`awaitingHandOver`) and goes there
    /// now.
    private func handOver(_ stream: StreamState, streamID: Int32, bodyLength: Int) -> HTTPRequest {
        stream.awaitingHandOver = false
        let request = HTTPRequest(
            method: stream.method ?? "", path: stream.path ?? "", scheme: stream.scheme,
            authority: stream.authority ?? stream.host, headers: stream.headers, body: stream.body,
            bodyLength: bodyLength, streamID: streamID, connection: connection, receivedAt: stream.receivedAt)
        if stream.closed { recycle(stream) }
        return request
    }

    /// Appends every frame nghttp2 wants to send to `output`, at most `limit` bytes beyond what it holds.
    func drainOutput(into output: inout [UInt8], limit: Int = .max) {
        drainFrames(into: &output, limit: limit)
        resetStreamsAnsweredEarly()
        if !goAwayReady.isEmpty {
            let ready = goAwayReady
            goAwayReady = []
            for goAway in ready {
                self.goAway(errorCode: goAway.errorCode, debugData: goAway.debugData, lastStreamID: goAway.lastStreamID)
            }
            drainFrames(into: &output, limit: limit)
        }
    }

    private func drainFrames(into output: inout [UInt8], limit: Int) {
        while output.count < limit {
            var chunk: UnsafePointer<UInt8>?
            insideNGHTTP2 = true
            let length = nghttp2_session_mem_send(session, &chunk)
            insideNGHTTP2 = false
            if length <= 0 {
                if length < 0 { fatalError = String(cString: nghttp2_strerror(Int32(length))) }
                break
            }
            output.append(contentsOf: UnsafeBufferPointer(start: chunk, count: length))
        }
    }

    /// True while the peer may still send or this side has frames to send.
    var wantsRead: Bool { nghttp2_session_want_read(session) != 0 }
    var wantsWrite: Bool { nghttp2_session_want_write(session) != 0 }
    /// Bytes in the HPACK encoder's dynamic table (RFC 7541 §4.1 sizes), for tests of `worthIndexing`.
    var encoderTableSize: Int { nghttp2_session_get_hd_deflate_dynamic_table_size(session) }

    // MARK: - Answers

    /// Submits the response for `streamID`: HEADERS, plus one DATA frame (END_STREAM) when there is a body and the
    /// request was not HEAD. Ignored when the stream is gone (client reset it, connection closing).
    func respond(streamID: Int32, response: HTTPResponse) {
        precondition(!insideNGHTTP2, "respond(streamID:response:) called while nghttp2 is on the stack")
        // A request's stream carries its `StreamState` as nghttp2's stream user data (`beginHeaders`).
        let streamData = nghttp2_session_get_stream_user_data(session, streamID)
        guard streamData != nil || nghttp2_session_find_stream(session, streamID) != nil else { return }
        // Written into the session's reused header-block buffer (no allocation once it has grown); names
        // lower-cased as they are copied. The sent values are moved into a local for the block (and back): each
        // field then changes a local, without a dynamic exclusivity check of a property per change.
        let fields = responseFields
        var sentValues: [(name: String, value: String)] = []
        swap(&sentValues, &lastSentValues)
        defer { swap(&sentValues, &lastSentValues) }
        fields.removeAll()
        fields.append(name: ":status", decimal: response.status)
        for header in response.headers {
            fields.append(
                lowercasingName: header.name, value: header.value, indexed: Self.worthIndexing(header, &sentValues))
        }
        if !response.body.isEmpty {
            fields.append(name: "content-length", decimal: response.body.count)
        }
        let session = session
        // A response to HEAD carries no content (RFC 9110 §9.3.2): its `content-length` stays, its body is not sent.
        // (Looked at only for a response with a body: never a 200.)
        let sendsBody = !response.body.isEmpty && !Self.isHEAD(streamData)
        fields.withNameValues { nva in
            if !sendsBody {
                _ = nghttp2_submit_response(session, streamID, nva.baseAddress, nva.count, nil)
            } else if let streamData {
                // The body waits on the stream's state, which the read callback finds through the data source
                // (no lookup by stream id); the state outlives the stream's reads (`streamClosed`).
                let state = Unmanaged<StreamState>.fromOpaque(streamData).takeUnretainedValue()
                state.responseBody = response.body
                state.responseBodyOffset = 0
                var provider = nghttp2_data_provider()
                provider.source.ptr = streamData
                provider.read_callback = readStreamBody
                _ = nghttp2_submit_response(session, streamID, nva.baseAddress, nva.count, &provider)
            } else {
                var bodies = outgoingBodies
                outgoingBodies = OutgoingBodies()
                bodies[streamID] = response.body
                outgoingBodies = bodies
                var provider = nghttp2_data_provider()
                provider.read_callback = readResponseBody
                _ = nghttp2_submit_response(session, streamID, nva.baseAddress, nva.count, &provider)
            }
        }
    }

    /// Whether the request of the stream whose state is `streamData` (`beginHeaders`) is a HEAD request.
    private static func isHEAD(_ streamData: UnsafeMutableRawPointer?) -> Bool {
        guard let streamData else { return false }
        return Unmanaged<StreamState>.fromOpaque(streamData).takeUnretainedValue().method == "HEAD"
    }

    /// Whether the HPACK encoder should add a response field to its dynamic table: yes the first time its name is
    /// sent on this connection (later fields refer to the name by index) and when its value repeats the last one
    /// sent (later ones refer to the whole field); no for a new value of a name already sent (the ids of each
    /// answer, `apns-id` and `apns-unique-id`), which would cost nghttp2 an allocated table entry and an eviction
    /// for a value never referred to again. The client decodes the same fields either way.
    /// `lastSent`: the session's `lastSentValues`.
    private static func worthIndexing(_ field: HeaderField, _ lastSent: inout [(name: String, value: String)]) -> Bool {
        // Lengths compared first: a name of another length is passed over without a string comparison.
        let nameLength = field.name.utf8.count
        guard let slot = lastSent.firstIndex(where: { $0.name.utf8.count == nameLength && $0.name == field.name })
        else {
            if lastSent.count < rememberedResponseNames { lastSent.append((field.name, field.value)) }
            return true
        }
        if sameBytes(lastSent[slot].value, field.value) { return true }
        lastSent[slot].value = field.value
        return false
    }

    /// Whether the two values have the same UTF-8 bytes: lengths, then one `memcmp` in place. The usual answer is
    /// no for a new id of the same length, which `==` found only through the standard library's general comparison
    /// (~120 instructions per id). Bytes, not canonical equivalence: the value sent is the field's own either way,
    /// this decides only whether the encoder indexes it.
    @inline(__always)
    private static func sameBytes(_ first: String, _ second: String) -> Bool {
        guard first.utf8.count == second.utf8.count else { return false }
        return first.withUTF8InPlace { first in
            second.withUTF8InPlace { second in
                first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0
            }
        }
    }

    /// Carries out a connection change that accompanies a response.
    func apply(_ action: ConnectionAction, streamID: Int32) {
        precondition(!insideNGHTTP2, "apply(_:streamID:) called while nghttp2 is on the stack")
        switch action {
        case .setMaxConcurrentStreams(let value):
            guard value != maxConcurrentStreams else { return }
            maxConcurrentStreams = value
            var entry = nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: value)
            _ = nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entry, 1)
        case .goAway(let errorCode, let debugData):
            if nghttp2_session_find_stream(session, streamID) != nil {
                afterResponse(streamID, goAway: (errorCode, debugData, nil))
            } else {
                goAway(errorCode: errorCode, debugData: debugData)
            }
        case .resetStream(let errorCode):
            _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, errorCode)
        case .goAwayNaming(let lastStreamID, let errorCode, let debugData, let beforeResponse):
            if !beforeResponse && nghttp2_session_find_stream(session, streamID) != nil {
                afterResponse(streamID, goAway: (errorCode, debugData, lastStreamID))
            } else {
                goAway(errorCode: errorCode, debugData: debugData, lastStreamID: lastStreamID)
            }
        case .closeConnection, .delayResponse:
            break  // carried out by the connection driver and the event loop
        }
    }

    /// GOAWAY naming `lastStreamID` (default: the last stream this side processed); streams up to it may finish.
    func goAway(errorCode: UInt32, debugData: [UInt8], lastStreamID named: Int32? = nil) {
        precondition(!insideNGHTTP2)
        let lastStreamID = named ?? nghttp2_session_get_last_proc_stream_id(session)
        debugData.withUnsafeBufferPointer { debug in
            _ = nghttp2_submit_goaway(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStreamID, errorCode, debug.baseAddress, debug.count)
        }
    }

    // MARK: - Private

    private func submitInitialSettings() {
        var entries = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_HEADER_TABLE_SIZE.rawValue), value: settings.headerTableSize),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: maxConcurrentStreams),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: settings.initialWindowSize),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_FRAME_SIZE.rawValue), value: settings.maxFrameSize),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: settings.maxHeaderListSize),
        ]
        _ = nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entries, entries.count)
    }

    private func resetStreamsAnsweredEarly() {
        guard !responseEnded.isEmpty else { return }
        let ended = responseEnded
        responseEnded = []
        for streamID in ended where nghttp2_session_find_stream(session, streamID) != nil {
            // RFC 9113 §8.1: a server that answered before the request ended may ask the client to stop sending
            // with RST_STREAM(NO_ERROR).
            _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, NGHTTP2_NO_ERROR.rawValue)
        }
    }

    fileprivate func frameSent(streamID: Int32, endStream: Bool) {
        guard endStream else { return }
        if !streamsToResetAfterResponse.isEmpty, forgetResetAfterResponse(streamID) {
            var ended = responseEnded
            responseEnded = []
            ended.insert(streamID)
            responseEnded = ended
        }
        if !goAwayAfterResponse.isEmpty {
            var pending = goAwayAfterResponse
            goAwayAfterResponse = [:]
            if let goAway = pending.removeValue(forKey: streamID) {
                var ready = goAwayReady
                goAwayReady = []
                ready.append(goAway)
                goAwayReady = ready
            }
            goAwayAfterResponse = pending
        }
    }

    /// Sends a GOAWAY once the response of `streamID` has ended (`frameSent`).
    private func afterResponse(_ streamID: Int32, goAway: (errorCode: UInt32, debugData: [UInt8], lastStreamID: Int32?)) {
        var pending = goAwayAfterResponse
        goAwayAfterResponse = [:]
        pending[streamID] = goAway
        goAwayAfterResponse = pending
    }

    /// Takes `streamID` out of `streamsToResetAfterResponse`; true when it was there.
    private func forgetResetAfterResponse(_ streamID: Int32) -> Bool {
        var streams = streamsToResetAfterResponse
        streamsToResetAfterResponse = []
        let removed = streams.remove(streamID) != nil
        streamsToResetAfterResponse = streams
        return removed
    }

    fileprivate func beginHeaders(streamID: Int32) {
        let receivedAt = now()
        let startedAt = DispatchTime.now().uptimeNanoseconds
        let stream: StreamState
        if let spare = spareStreams.take() {
            spare.reset(receivedAt: receivedAt, startedAt: startedAt)
            stream = spare
        } else {
            stream = StreamState(receivedAt: receivedAt, startedAt: startedAt)
        }
        stream.streamID = streamID
        stream.next = openStreams
        openStreams?.previous = stream
        openStreams = stream
        openStreamCount += 1
        headerBlockStreamID = streamID
        headerBlockState = .passUnretained(stream)
        // Unretained: `openStreams` holds the state until nghttp2 closes the stream (`streamClosed`), after which
        // nghttp2 no longer hands this pointer out.
        nghttp2_session_set_stream_user_data(session, streamID, Unmanaged.passUnretained(stream).toOpaque())
    }

    /// The stream `streamID` while its header block arrives.
    private func headerBlock(_ streamID: Int32) -> StreamState? {
        headerBlockReference(streamID)?.takeUnretainedValue()
    }

    /// `headerBlock(_:)` unretained, for a caller that uses it within a callback (`openStreams` holds it).
    @inline(__always)
    private func headerBlockReference(_ streamID: Int32) -> Unmanaged<StreamState>? {
        if streamID == headerBlockStreamID, let state = headerBlockState { return state }
        // The stream's user data (`beginHeaders`): nghttp2's own map, no hashing of the id here.
        guard let data = nghttp2_session_get_stream_user_data(session, streamID) else { return nil }
        return Unmanaged<StreamState>.fromOpaque(data)
    }

    /// Counts one arriving header field of `stream` against the advertised MAX_HEADER_LIST_SIZE (RFC 9113 §6.5.2:
    /// name + value + 32 per field) before anything is decoded. Returns false once the list is over the limit: the
    /// field is not kept, and the stream will be answered 431 (`dispatch`), so a block of any size costs O(1) per
    /// field.
    private func admitHeaderField(of stream: StreamState, nameLength: Int, valueLength: Int) -> Bool {
        headerFieldsSeen += 1
        let size = stream.headerListSize + nameLength + valueLength + 32
        stream.headerListSize = size
        guard size <= Int(settings.maxHeaderListSize), !stream.headerListTooLarge else {
            stream.headerListTooLarge = true
            return false
        }
        return true
    }

    /// `admitHeaderField(of:nameLength:valueLength:)` for the stream `streamID` (false when it is gone).
    fileprivate func admitHeaderField(streamID: Int32, nameLength: Int, valueLength: Int) -> Bool {
        guard let stream = headerBlock(streamID) else {
            headerFieldsSeen += 1
            return false
        }
        return admitHeaderField(of: stream, nameLength: nameLength, valueLength: valueLength)
    }

    /// A header field as nghttp2 decoded it, once admitted (`admitHeaderField`): pseudo-headers and `host` told
    /// apart by their bytes, values of recent requests reused (`RecentHeaderValues`), the names the APNs rules read
    /// shared as constants. The stream is looked up once for both.
    fileprivate func header(streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard let stream = headerBlockReference(streamID) else {
            headerFieldsSeen += 1
            return 0
        }
        return header(of: stream.takeUnretainedValue(), name: name, value: value)
    }

    private func header(of stream: StreamState, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard admitHeaderField(of: stream, nameLength: name.count, valueLength: value.count), !stream.dispatched
        else { return 0 }
        headerFieldsKept += 1
        switch RequestFieldName(name) {
        case .method: stream.method = recentString(value)
        case .path: stream.path = recentPaths.string(value)
        case .scheme: stream.scheme = recentString(value)
        case .authority: stream.authority = recentString(value)
        case .host:
            let text = recentString(value)
            stream.host = text
            stream.append(HeaderField("host", text))
        case .known(let knownName):
            stream.append(HeaderField(knownName, recentString(value)))
        case .other:
            stream.append(HeaderField(String(decoding: name, as: UTF8.self), recentString(value)))
        }
        return 0
    }

    /// `recentValues.string(value)` (a constant: no access to a stored property to check).
    @inline(__always)
    private func recentString(_ value: UnsafeBufferPointer<UInt8>) -> String {
        recentValues.string(value)
    }

    /// A regular header field nghttp2 found invalid (its name already lower-cased; pseudo-headers are not kept),
    /// once admitted (`admitHeaderField(streamID:nameLength:valueLength:)`, before its strings are made).
    fileprivate func invalidHeader(streamID: Int32, name: String, value: String) -> Int32 {
        guard let stream = headerBlock(streamID), !stream.dispatched else { return 0 }
        headerFieldsKept += 1
        if name == "host" { stream.host = value }
        stream.append(HeaderField(name, value))
        return 0
    }

    fileprivate func dataChunk(streamID: Int32, bytes: UnsafeBufferPointer<UInt8>) {
        guard let stream = headerBlock(streamID), !stream.refused else { return }
        stream.bodyLength += bytes.count
        let room = settings.requestBodyLimit - stream.body.count
        if room > 0 && !stream.dispatched {
            let take = min(room, bytes.count)
            guard bufferedBodyBytes + take <= settings.connectionBodyBufferLimit, bodyBudget.reserve(take) else {
                // Over a body cap: this stream gives way (REFUSED_STREAM: not processed, safe to retry).
                refuse(stream)
                var refused = streamsToRefuse
                streamsToRefuse = []
                refused.append(streamID)
                streamsToRefuse = refused
                return
            }
            bufferedBodyBytes += take
            stream.reservedBodyBytes += take
            stream.appendBody(bytes.prefix(take))
        }
        if stream.bodyLength > settings.requestBodyLimit && !stream.dispatched {
            // Answer now; do not keep the rest (the body is answered without being buffered in full).
            var streams = streamsToResetAfterResponse
            streamsToResetAfterResponse = []
            streams.insert(streamID)
            streamsToResetAfterResponse = streams
            dispatch(stream, streamID: streamID)
        }
    }

    private func refuse(_ stream: StreamState) {
        stream.refused = true
        releaseBody(of: stream)
        stream.dropBody()
    }

    private func releaseBody(of stream: StreamState) {
        guard stream.reservedBodyBytes > 0 else { return }
        bufferedBodyBytes -= stream.reservedBodyBytes
        bodyBudget.release(stream.reservedBodyBytes)
        stream.reservedBodyBytes = 0
    }

    fileprivate func endStream(streamID: Int32) {
        // The client finished sending: no need to ask it to stop.
        if !streamsToResetAfterResponse.isEmpty { _ = forgetResetAfterResponse(streamID) }
        guard let stream = headerBlock(streamID), !stream.dispatched, !stream.refused else { return }
        dispatch(stream, streamID: streamID)
    }

    private func dispatch(_ stream: StreamState, streamID: Int32) {
        stream.dispatched = true
        // The body now belongs to the request handed over (or is dropped): it no longer counts as buffered.
        releaseBody(of: stream)
        // The queue is moved into a local for the append and back (see `HTTP2ServerSession`).
        var queued: [QueuedEvent] = []
        swap(&queued, &events)
        defer { swap(&queued, &events) }
        if stream.headerListTooLarge {
            queued.append(.headerListTooLarge(streamID: streamID, size: stream.headerListSize))
            return
        }
        stream.awaitingHandOver = true
        queued.append(.request(streamID: streamID, stream: stream, bodyLength: stream.bodyLength))
    }

    /// nghttp2 closes a stream (its user data, set by `beginHeaders`, is still there during the callback).
    fileprivate func streamClosed(streamID: Int32) {
        if let data = nghttp2_session_get_stream_user_data(session, streamID) {
            let stream = Unmanaged<StreamState>.fromOpaque(data).takeUnretainedValue()
            unlink(stream)
            releaseBody(of: stream)
            stream.responseBody = []
            stream.closed = true
            // A stream whose request is still queued is recycled once it is handed over (`handOver`).
            if !stream.awaitingHandOver { recycle(stream) }
        }
        if headerBlockStreamID == streamID {
            headerBlockStreamID = 0
            headerBlockState = nil
        }
        if !outgoingBodies.isEmpty {
            var bodies = outgoingBodies
            outgoingBodies = OutgoingBodies()
            bodies[streamID] = nil
            outgoingBodies = bodies
        }
    }

    /// Takes a stream's state out of `openStreams`.
    private func unlink(_ stream: StreamState) {
        if let previous = stream.previous { previous.next = stream.next } else { openStreams = stream.next }
        stream.next?.previous = stream.previous
        stream.next = nil
        stream.previous = nil
        openStreamCount -= 1
    }

    private func recycle(_ stream: StreamState) {
        spareStreams.keep(stream)
    }

    fileprivate func readBody(streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, capacity: Int, flags: UnsafeMutablePointer<UInt32>) -> Int {
        var bodies = outgoingBodies
        outgoingBodies = OutgoingBodies()
        defer { outgoingBodies = bodies }
        return bodies.read(streamID: streamID, into: buffer, capacity: capacity, flags: flags)
    }

    /// Copies up to `capacity` bytes of the stream's response body into `buffer` (as `OutgoingBodies.read`): EOF
    /// with the last of them, and the body let go.
    fileprivate static func readBody(of stream: StreamState, into buffer: UnsafeMutablePointer<UInt8>, capacity: Int, flags: UnsafeMutablePointer<UInt32>) -> Int {
        let offset = stream.responseBodyOffset
        let count = min(capacity, stream.responseBody.count - offset)
        if count > 0 {
            stream.responseBody.withUnsafeBufferPointer { source in
                buffer.update(from: source.baseAddress! + offset, count: count)
            }
        }
        if offset + count >= stream.responseBody.count {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            stream.responseBody = []
            stream.responseBodyOffset = 0
        } else {
            stream.responseBodyOffset = offset + count
        }
        return count
    }
}

// MARK: - nghttp2 callbacks: trampolines into the session object

private func session(from userData: UnsafeMutableRawPointer?) -> HTTP2ServerSession {
    Unmanaged<HTTP2ServerSession>.fromOpaque(userData!).takeUnretainedValue()
}

/// Runs `body` on the session whose nghttp2 session is calling back (it owns that session, so it outlives the
/// callback).
@inline(__always)
private func withSession<R>(_ userData: UnsafeMutableRawPointer?, _ body: (HTTP2ServerSession) -> R) -> R {
    body(Unmanaged<HTTP2ServerSession>.fromOpaque(userData!).takeUnretainedValue())
}

private func isRequestHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Bool {
    frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) && frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST
}

private let onBeginHeaders: nghttp2_on_begin_headers_callback = { _, frame, userData in
    guard let frame, isRequestHeaders(frame) else { return 0 }
    withSession(userData) { $0.beginHeaders(streamID: frame.pointee.hd.stream_id) }
    return 0
}

private let onHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, userData in
    guard let frame, let name, let value, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
    return withSession(userData) {
        $0.header(
            streamID: frame.pointee.hd.stream_id, name: UnsafeBufferPointer(start: name, count: nameLength),
            value: UnsafeBufferPointer(start: value, count: valueLength))
    }
}

/// A header field nghttp2 considers invalid (for example a value with characters RFC 9113 forbids) would otherwise
/// be dropped silently; keep it so the APNs rules see what the client sent.
private let onInvalidHeader: nghttp2_on_invalid_header_callback = { _, frame, name, nameLength, value, valueLength, _, userData in
    guard let frame, let name, let value, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
    let nameString = String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self)
    guard !nameString.hasPrefix(":") else { return 0 }
    let server = session(from: userData)
    guard server.admitHeaderField(streamID: frame.pointee.hd.stream_id, nameLength: nameLength, valueLength: valueLength) else { return 0 }
    return server.invalidHeader(
        streamID: frame.pointee.hd.stream_id, name: nameString.lowercased(),
        value: String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self))
}

private let onDataChunk: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
    guard let data else { return 0 }
    withSession(userData) { $0.dataChunk(streamID: streamID, bytes: UnsafeBufferPointer(start: data, count: length)) }
    return 0
}

private let onFrameRecv: nghttp2_on_frame_recv_callback = { _, frame, userData in
    guard let frame else { return 0 }
    let type = UInt32(frame.pointee.hd.type)
    let endStream = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
    if endStream && (type == NGHTTP2_HEADERS.rawValue || type == NGHTTP2_DATA.rawValue) {
        withSession(userData) { $0.endStream(streamID: frame.pointee.hd.stream_id) }
    }
    return 0
}

private let onFrameSend: nghttp2_on_frame_send_callback = { _, frame, userData in
    guard let frame else { return 0 }
    let type = UInt32(frame.pointee.hd.type)
    guard type == NGHTTP2_HEADERS.rawValue || type == NGHTTP2_DATA.rawValue else { return 0 }
    withSession(userData) {
        $0.frameSent(
            streamID: frame.pointee.hd.stream_id,
            endStream: frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0)
    }
    return 0
}

private let onStreamClose: nghttp2_on_stream_close_callback = { _, streamID, _, userData in
    withSession(userData) { $0.streamClosed(streamID: streamID) }
    return 0
}

private let readResponseBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, userData in
    guard let buffer, let flags else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
    return withSession(userData) { $0.readBody(streamID: streamID, into: buffer, capacity: length, flags: flags) }
}

/// The body of a response whose data source names the stream's state (`respond`).
private let readStreamBody: nghttp2_data_source_read_callback = { _, _, buffer, length, flags, source, _ in
    guard let buffer, let flags, let state = source?.pointee.ptr else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
    let stream = Unmanaged<HTTP2ServerSession.StreamState>.fromOpaque(state).takeUnretainedValue()
    return HTTP2ServerSession.readBody(of: stream, into: buffer, capacity: length, flags: flags)
}
