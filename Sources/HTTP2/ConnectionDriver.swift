import HTTPContract
import CNative
import Glibc

/// Moves bytes between one client's bufferevent (TLS or cleartext) and its `HTTP2ServerSession`, and between the
/// session and the application's connection handler. Lives on its worker's thread only; its stored `var`s are kept
/// free of run-time exclusivity checks as `HTTP2ServerSession` explains.
///
/// Closing: once the server has said all it will say (`finishWriting`: nghttp2 wants neither to read nor to write
/// after a GOAWAY, a protocol error, an idle timeout, shutdown, a scripted close), the session is let go, the output
/// is written, the write side shut down (TLS close_notify, then FIN), and what the client still sends is read and
/// discarded until it closes or `closeLingerTimeout` passes (`shutDownWriteSide`). Freeing the socket with client
/// bytes unread made the kernel answer with RST and drop the answers still on their way.
final class ConnectionDriver {
    let id: UInt64
    private let bufferEvent: OpaquePointer
    private unowned let worker: EventLoopWorker
    private let remoteAddress: String
    private let localPort: Int
    private let listenerLabel: String

    private var session: HTTP2ServerSession?
    private var handler: (any HTTP2ConnectionHandler)?
    private var sniffer: PrefaceSniffer? = PrefaceSniffer()
    private var closeWhenFlushed = false
    private var readingPaused = false
    private var closed = false
    private var output: [UInt8] = []
    /// Handshake, idle and incomplete-stream deadlines (`ConnectionTimeouts`).
    private var timeouts: ConnectionTimeouts
    private var timer: OpaquePointer?
    /// When the timer fires next (monotonic nanoseconds).
    private var timerDeadline: UInt64 = 0
    /// Set by `finishWriting`: nothing more is sent but what is in the output buffer; the timer bounds the close.
    private var lingering = false
    /// After the write side is shut down: reads and discards what the client sends (`discardInput`).
    private var discardEvent: OpaquePointer?
    /// Retries TLS close_notify when the socket could not take it at once.
    private var closeNotifyEvent: OpaquePointer?

    init(id: UInt64, bufferEvent: OpaquePointer, worker: EventLoopWorker, remoteAddress: String, localPort: Int, listenerLabel: String) {
        self.id = id
        self.bufferEvent = bufferEvent
        self.worker = worker
        self.remoteAddress = remoteAddress
        self.localPort = localPort
        self.listenerLabel = listenerLabel
        timeouts = ConnectionTimeouts(settings: worker.settings, acceptedAt: ConnectionTimeouts.uptime())
    }

    func install() {
        bufferevent_setcb(bufferEvent, onReadable, onWritable, onEvent, Unmanaged.passUnretained(self).toOpaque())
        bufferevent_enable(bufferEvent, Int16(EV_READ | EV_WRITE))
        timer = event_new(worker.base, -1, 0, onTimer, Unmanaged.passUnretained(self).toOpaque())
        schedule(timeouts.nextCheck(handshakeDone: false, openStreams: 0, oldestIncompleteStream: nil))
    }

    private func schedule(_ delayNanoseconds: UInt64) {
        guard let timer, !closed else { return }
        timerDeadline = ConnectionTimeouts.uptime() &+ delayNanoseconds
        var delay = timeval(tv_sec: Int(delayNanoseconds / 1_000_000_000), tv_usec: Int(delayNanoseconds % 1_000_000_000 / 1000))
        event_add(timer, &delay)
    }

    /// The connection's one timer: closes a connection stuck in its handshake, resets requests that stopped
    /// sending, and says GOAWAY to an idle connection; then waits for the next deadline.
    fileprivate func timerFired() {
        guard !closed else { return }
        if lingering {
            // The client neither read the last of the output nor closed in time.
            close()
            return
        }
        let now = ConnectionTimeouts.uptime()
        let handshakeDone = session != nil && sniffer == nil
        switch timeouts.action(now: now, handshakeDone: handshakeDone, openStreams: session?.openStreamCount ?? 0,
                               oldestIncompleteStream: session?.oldestIncompleteStreamStart, closing: closeWhenFlushed) {
        case .close:
            close()
            return
        case .resetIncompleteStreams(let cutoff):
            session?.resetIncompleteStreams(startedBefore: cutoff)
            flush()
        case .goAwayIdle:
            session?.goAway(errorCode: NGHTTP2_NO_ERROR.rawValue, debugData: [])
            closeWhenFlushed = true
            timeouts.goAwaySentAt = now
            flush()
        case .wait:
            break
        }
        guard !closed else { return }
        schedule(timeouts.nextCheck(handshakeDone: handshakeDone, openStreams: session?.openStreamCount ?? 0,
                                    oldestIncompleteStream: session?.oldestIncompleteStreamStart))
    }

    /// The connection is ready for HTTP/2 (TLS handshake done, or cleartext accepted): open the application's
    /// handler and send the server's SETTINGS at once (Pushy waits for them before its first request: A-CONN).
    func established(tls: TLSInfo?) {
        guard session == nil, !lingering else { return }
        let info = ConnectionInfo(id: id, remoteAddress: remoteAddress, localPort: localPort, tls: tls, listenerLabel: listenerLabel)
        let handler = worker.application.connectionOpened(info)
        self.handler = handler
        session = HTTP2ServerSession(
            connection: info, settings: worker.settings, maxConcurrentStreams: handler.initialMaxConcurrentStreams,
            bodyBudget: worker.bodyBudget, spareStreams: worker.spareStreams, now: { [clock = worker.clock] in clock.now() })
        flush()
        // Bytes that arrived with the end of the handshake are waiting in the input buffer.
        readable()
    }

    // MARK: - Events from libevent

    fileprivate func readable() {
        // Until the session exists (TLS handshake not yet reported), bytes stay in the input buffer.
        guard let session, let input = bufferevent_get_input(bufferEvent) else { return }
        let length = evbuffer_get_length(input)
        guard length > 0 else { return }
        defer { evbuffer_drain(input, length) }
        timeouts.lastActivity = ConnectionTimeouts.uptime()
        guard !closeWhenFlushed else { return }

        if var sniffer {
            guard let bytes = evbuffer_pullup(input, -1) else { return }
            let buffer = UnsafeRawBufferPointer(start: bytes, count: length)
            switch sniffer.feed(buffer) {
            case .needMoreBytes:
                self.sniffer = sniffer
                return
            case .http1(let method, let path):
                self.sniffer = nil
                session.goAway(errorCode: NGHTTP2_PROTOCOL_ERROR.rawValue, debugData: PrefaceSniffer.http1DebugData(method: method, path: path))
                closeWhenFlushed = true
                flush()
                return
            case .http2, .unknown:
                self.sniffer = nil
                _ = sniffer.buffered.withUnsafeBytes { session.receive($0) }
                // Handshake done: from now on the idle and stream deadlines apply.
                schedule(timeouts.nextCheck(handshakeDone: true, openStreams: session.openStreamCount, oldestIncompleteStream: nil))
            }
        } else {
            Self.receive(input, length: length, into: session)
        }
        if session.openStreamCount > 0 && timerDeadline > timeouts.lastActivity &+ timeouts.incompleteStream {
            // A stream may have begun: look again no later than its timeout.
            schedule(timeouts.incompleteStream)
        }
        dispatchEvents()
        worker.deliverPendingResponses()
        flush()
    }

    /// Feeds the first `length` bytes of `input` to `session` where they lie, one chain of the buffer after
    /// another (nghttp2 takes a frame in pieces): no `evbuffer_pullup`, which copied the read into one piece
    /// whenever it spanned chains (TLS records of pipelined requests). A read in more than 8 pieces is made
    /// contiguous first.
    private static func receive(_ input: OpaquePointer, length: Int, into session: HTTP2ServerSession) {
        let capacity = 8
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: capacity) { pieces in
            let count = Int(evbuffer_peek(input, length, nil, pieces.baseAddress, Int32(capacity)))
            guard count <= capacity else {
                guard let bytes = evbuffer_pullup(input, length) else { return }
                session.receive(UnsafeRawBufferPointer(start: bytes, count: length))
                return
            }
            var remaining = length
            for piece in pieces[..<count] where remaining > 0 {
                let size = min(piece.iov_len, remaining)
                remaining -= size
                guard session.receive(UnsafeRawBufferPointer(start: piece.iov_base, count: size)) else { return }
            }
        }
    }

    fileprivate func writable() {
        if readingPaused && outputLength < worker.settings.outputHighWatermark / 2 {
            readingPaused = false
            bufferevent_enable(bufferEvent, Int16(EV_READ))
        }
        flush()
    }

    fileprivate func event(_ what: Int16) {
        if what & Int16(BEV_EVENT_CONNECTED) != 0 {
            let ssl = bufferevent_openssl_get_ssl(bufferEvent)
            established(tls: ssl.map(TLSContext.info(of:)))
            return
        }
        if what & Int16(BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT) != 0 {
            close()
        }
    }

    // MARK: - Application side

    private func dispatchEvents() {
        guard let session, let handler else { return }
        session.forEachEvent { event in
            switch consume event {
            case .request(let request):
                // Handed over to the handler (which may keep it: the delivery record), not copied.
                let sink = worker.makeSink(connectionID: id, streamID: request.streamID)
                handler.handle(request, sink: sink)
            case .headerListTooLarge(let streamID, _):
                session.respond(streamID: streamID, response: HTTPResponse(status: 431))
            }
        }
    }

    func deliver(streamID: Int32, response: HTTPResponse, actions: [ConnectionAction]) {
        guard let session, !closed else { return }
        guard !actions.isEmpty else {
            session.respond(streamID: streamID, response: response)
            return
        }
        if actions.contains(.closeConnection) {
            // No answer and no GOAWAY; what was answered before goes out first, then FIN.
            flush()
            finishWriting()
            return
        }
        var answers = !actions.contains(where: { if case .resetStream = $0 { true } else { false } })
        // A GOAWAY naming a last stream lets the streams up to it finish (RFC 9113 §6.8); nghttp2 closes those above
        // it when the frame is sent, and stops wanting to read once none is open: `flush` finishes the connection then.
        for action in actions {
            guard case .goAwayNaming(let lastStreamID, _, _, true) = action else { continue }
            session.apply(action, streamID: streamID)
            if lastStreamID < streamID { answers = false }
        }
        if answers {
            session.respond(streamID: streamID, response: response)
        }
        for action in actions {
            if case .goAwayNaming(_, _, _, true) = action { continue }
            session.apply(action, streamID: streamID)
        }
    }

    /// Shutdown: GOAWAY(NO_ERROR) naming the last processed stream; the connection closes once those finish.
    func goAwayForShutdown() {
        guard !lingering else { return }
        guard let session else {
            close()
            return
        }
        session.goAway(errorCode: NGHTTP2_NO_ERROR.rawValue, debugData: [])
        flush()
    }

    // MARK: - Output

    private var outputLength: Int {
        bufferevent_get_output(bufferEvent).map { evbuffer_get_length($0) } ?? 0
    }

    /// Writes what nghttp2 has to send, pausing reads from a client that does not read its responses, and finishes
    /// the connection when neither side has anything left to say.
    func flush() {
        guard let session, !closed else { return }
        let pending = outputLength
        let watermark = worker.settings.outputHighWatermark
        if pending < watermark {
            // The buffer is moved into a local while nghttp2 fills it and libevent copies it out (and back after):
            // no access to the stored property stays open across those calls.
            var bytes: [UInt8] = []
            swap(&bytes, &output)
            bytes.removeAll(keepingCapacity: true)
            session.drainOutput(into: &bytes, limit: watermark - pending)
            if !bytes.isEmpty {
                _ = bytes.withUnsafeBytes { bufferevent_write(bufferEvent, $0.baseAddress, $0.count) }
            }
            swap(&bytes, &output)
        }
        if outputLength >= watermark && !readingPaused {
            readingPaused = true
            bufferevent_disable(bufferEvent, Int16(EV_READ))
        }
        let done = closeWhenFlushed || session.fatalError != nil || !session.wantsRead
        if done && !session.wantsWrite { finishWriting() }
    }

    // MARK: - Closing

    /// The server has said all it will say on this connection (nghttp2 has nothing more to send): the handler is
    /// told and the session let go; the output still buffered is written while what the client sends is discarded,
    /// then `shutDownWriteSide`. A client that does not read the last of the output gets `handshakeTimeout` for it,
    /// as after an idle GOAWAY; then the connection is closed at once.
    private func finishWriting() {
        guard !lingering, !closed else { return }
        lingering = true
        if let handler { handler.connectionClosed() }
        handler = nil
        session = nil
        sniffer = nil
        if outputLength == 0 {
            shutDownWriteSide()
            return
        }
        bufferevent_setcb(bufferEvent, onReadableWhileClosing, onWritableWhileClosing, onEvent, Unmanaged.passUnretained(self).toOpaque())
        bufferevent_enable(bufferEvent, Int16(EV_READ | EV_WRITE))
        schedule(timeouts.handshake)
    }

    fileprivate func readableWhileClosing() {
        guard let input = bufferevent_get_input(bufferEvent) else { return }
        evbuffer_drain(input, evbuffer_get_length(input))
    }

    fileprivate func writableWhileClosing() {
        if outputLength == 0 { shutDownWriteSide() }
    }

    /// Every byte of output is in the kernel: TLS close_notify, then FIN (`shutdown(SHUT_WR)`); from now on the
    /// socket is read directly and what arrives discarded (`discardInput`) until the client closes or
    /// `closeLingerTimeout` passes.
    private func shutDownWriteSide() {
        bufferevent_disable(bufferEvent, Int16(EV_READ | EV_WRITE))
        bufferevent_setcb(bufferEvent, nil, nil, nil, nil)
        let fd = bufferevent_getfd(bufferEvent)
        guard fd >= 0 else {
            close()
            return
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        discardEvent = event_new(worker.base, fd, Int16(EV_READ | EV_PERSIST), onDiscardable, context)
        event_add(discardEvent, nil)
        schedule(ConnectionTimeouts.nanoseconds(worker.settings.closeLingerTimeout))
        sendCloseNotifyAndFIN()
    }

    /// TLS close_notify (retried when the socket's buffer is full), then FIN.
    fileprivate func sendCloseNotifyAndFIN() {
        guard !closed else { return }
        let fd = bufferevent_getfd(bufferEvent)
        if let ssl = bufferevent_openssl_get_ssl(bufferEvent) {
            let result = SSL_shutdown(ssl)
            let error = result < 0 ? SSL_get_error(ssl, result) : SSL_ERROR_NONE
            // Nothing of this connection's TLS errors may stay in the thread's queue for the next connection.
            ERR_clear_error()
            if error == SSL_ERROR_WANT_WRITE {
                if closeNotifyEvent == nil {
                    closeNotifyEvent = event_new(worker.base, fd, Int16(EV_WRITE), onCloseNotifyWritable, Unmanaged.passUnretained(self).toOpaque())
                }
                event_add(closeNotifyEvent, nil)
                return
            }
        }
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads and drops what the client sent; closes when it has closed (or the connection broke).
    fileprivate func discardInput() {
        let fd = bufferevent_getfd(bufferEvent)
        let clientClosed = withUnsafeTemporaryAllocation(byteCount: 16384, alignment: 1) { buffer -> Bool in
            // Bounded, so that a client sending without pause does not hold the thread.
            for _ in 0..<16 {
                let count = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 { continue }
                return count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            }
            return false
        }
        if clientClosed { close() }
    }

    func close() {
        guard !closed else { return }
        closed = true
        if let handler { handler.connectionClosed() }
        handler = nil
        // The events on the socket go before the socket (closed by `bufferevent_free`).
        if let discardEvent { event_free(discardEvent) }
        discardEvent = nil
        if let closeNotifyEvent { event_free(closeNotifyEvent) }
        closeNotifyEvent = nil
        bufferevent_setcb(bufferEvent, nil, nil, nil, nil)
        bufferevent_free(bufferEvent)
        if let timer { event_free(timer) }
        timer = nil
        session = nil
        worker.connectionDidClose(id)
    }
}

// MARK: - libevent trampolines

private func driver(_ context: UnsafeMutableRawPointer?) -> ConnectionDriver {
    Unmanaged<ConnectionDriver>.fromOpaque(context!).takeUnretainedValue()
}

private let onReadable: bufferevent_data_cb = { _, context in driver(context).readable() }
private let onWritable: bufferevent_data_cb = { _, context in driver(context).writable() }
private let onEvent: bufferevent_event_cb = { _, what, context in driver(context).event(what) }
private let onTimer: event_callback_fn = { _, _, context in driver(context).timerFired() }
private let onReadableWhileClosing: bufferevent_data_cb = { _, context in driver(context).readableWhileClosing() }
private let onWritableWhileClosing: bufferevent_data_cb = { _, context in driver(context).writableWhileClosing() }
private let onDiscardable: event_callback_fn = { _, _, context in driver(context).discardInput() }
private let onCloseNotifyWritable: event_callback_fn = { _, _, context in driver(context).sendCloseNotifyAndFIN() }
