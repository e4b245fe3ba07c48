import APNSCore
import APNSStore
import Foundation
private import CNative

/// The admin API's HTTP/1.1 server on libevent's `evhttp`: its own thread and `event_base`, loopback by default.
/// The only file of the admin API that touches C. Routing is `AdminRouter` (pure Swift); this class reads requests,
/// writes responses and parks long polls.
///
/// Long polls never block the event loop: each runs `waitForNext` on its own worker thread (at most
/// `maxParkedLongPolls` at once, more get 503), which queues the finished response and wakes the loop with
/// `event_active`; the loop sends it unless the client went away meanwhile (the connection's close callback
/// cancels it) and joins the thread.
///
/// `stop()` ends what it started before it returns: it cancels the long polls still waiting, waits for their
/// threads (at most `longPollStopBound` seconds), has the loop answer every parked request (the record that came,
/// else 503 "stopping") and waits until those answers are written or their connections gone (at most
/// `replyStopBound` seconds), then joins the loop thread. No thread it started holds the server afterwards, so
/// its libevent objects are freed by whoever releases it last, never on one of its threads after `stop()`.
package final class AdminServer: @unchecked Sendable {
    package static let maxParkedLongPolls = 64
    /// How long `stop()` waits for a cancelled long poll's thread (one still inside a store read).
    static let longPollStopBound = 5.0
    /// How long the stopping loop waits for its last answers to be written.
    static let replyStopBound = 5.0

    private let router: AdminRouter
    // The C handles below are used on the loop thread only, except `event_base_loopbreak` and `event_active`, which
    // libevent makes thread-safe once `evthread_use_pthreads` ran before the base was created.
    private let base: OpaquePointer
    private let http: OpaquePointer
    private var wakeEvent: OpaquePointer?
    /// Made active by `stop()`; its callback breaks the loop from inside it. (`event_base_loopbreak` from another
    /// thread is lost when it lands before the thread has entered `event_base_loop`, which clears the flag: a stop
    /// right after start hung. An active event waits for the loop instead.)
    private var stopEvent: OpaquePointer?
    private let boundPort: Int
    /// The event-loop thread (set by `start`, joined by `stop`).
    private var loopThread: JoinableThread?
    private let lifecycle = Locked(Lifecycle.created)
    /// Finished long polls waiting to be sent, and whether the loop still exists to send them.
    private let completions = Locked(Completions())
    /// Long polls whose thread runs, by ticket; `stopping` once `stop()` has taken them (no new ones start then).
    private let longPolls = Locked(LongPolls())
    /// Parked requests by ticket, touched on the loop thread only.
    private var parked: [Int: ParkedRequest] = [:]
    /// While stopping: the answers sent to parked requests and not yet written (loop thread only).
    private var unwrittenStopAnswers: [ParkedRequest] = []
    /// The stop event has run: the loop ends as soon as `unwrittenStopAnswers` is empty (loop thread only).
    private var ending = false
    private var nextTicket = 0
    /// Host, Origin and Content-Type checks when no token protects the API (`AdminRequestGuard`).
    private let requestGuard: AdminRequestGuard

    private enum Lifecycle { case created, running, stopped }

    private struct Completions {
        var ready: [(ticket: Int, response: AdminResponse)] = []
        var loopAlive = true
        /// The loop's wake event (set once in `init`): made active when `ready` grows.
        var wakeEvent: OpaquePointer?
    }

    private enum LongPollStart { case started, stopping, failed(String) }

    private struct LongPolls {
        var running: [Int: (thread: JoinableThread, cancellation: LongPollCancellation)] = [:]
        var stopping = false
    }

    private struct ParkedRequest {
        let request: OpaquePointer
        let connection: OpaquePointer?
    }

    /// Binds `host:port` (port 0 picks a free port; read it from `port`). Serves nothing until `start()`.
    package init(
        host: String = "127.0.0.1", port: Int, bearerToken: String?, store: any DeliveryStore,
        backend: any AdminBackend, inspector: InspectorFiles = .bundled()
    ) throws {
        router = AdminRouter(store: store, backend: backend, bearerToken: bearerToken, inspector: inspector)
        cnative_libevent_use_pthreads_once()
        guard let base = event_base_new() else { throw AdminServerError.libevent("event_base_new failed") }
        guard let http = evhttp_new(base) else {
            event_base_free(base)
            throw AdminServerError.libevent("evhttp_new failed")
        }
        guard let handle = evhttp_bind_socket_with_handle(http, host, UInt16(clamping: port)) else {
            evhttp_free(http)
            event_base_free(base)
            throw AdminServerError.bind(host: host, port: port, errno: errno)
        }
        self.base = base
        self.http = http
        let bound = cnative_bound_port(evhttp_bound_socket_get_fd(handle))
        boundPort = bound >= 0 ? Int(bound) : port
        requestGuard = AdminRequestGuard(adminHost: host, adminPort: boundPort, tokenConfigured: bearerToken != nil)
        evhttp_set_timeout(http, Int32(AdminRouter.maxLongPoll.components.seconds) + 60)
        evhttp_set_max_body_size(http, 16 << 20)
        evhttp_set_allowed_methods(
            http, UInt16(EVHTTP_REQ_GET.rawValue | EVHTTP_REQ_POST.rawValue | EVHTTP_REQ_DELETE.rawValue | EVHTTP_REQ_PUT.rawValue
                         | EVHTTP_REQ_HEAD.rawValue))
        let context = Unmanaged.passUnretained(self).toOpaque()
        evhttp_set_gencb(http, { request, context in
            guard let request, let context else { return }
            Unmanaged<AdminServer>.fromOpaque(context).takeUnretainedValue().handle(request)
        }, context)
        wakeEvent = event_new(base, -1, 0, { _, _, context in
            guard let context else { return }
            Unmanaged<AdminServer>.fromOpaque(context).takeUnretainedValue().sendFinishedLongPolls()
        }, context)
        completions.withLock { [wakeEvent] in $0.wakeEvent = wakeEvent }
        stopEvent = event_new(base, -1, 0, { _, _, context in
            guard let context else { return }
            Unmanaged<AdminServer>.fromOpaque(context).takeUnretainedValue().answerParkedAndEnd()
        }, context)
    }

    deinit {
        stop()
        if let wakeEvent { event_free(wakeEvent) }
        if let stopEvent { event_free(stopEvent) }
        evhttp_free(http)
        event_base_free(base)
    }

    /// The port actually bound (useful when 0 was given).
    package var port: Int { boundPort }

    /// Starts the event-loop thread.
    package func start() throws {
        let canStart = lifecycle.withLock { state -> Bool in
            guard state == .created else { return false }
            state = .running
            return true
        }
        guard canStart else { throw AdminServerError.libevent("start() called twice or after stop()") }
        do {
            loopThread = try JoinableThread(name: "apns-admin") { [self] in
                event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY)
            }
        } catch {
            lifecycle.withLock { $0 = .stopped }
            throw AdminServerError.libevent("\(error)")
        }
    }

    /// Stops the server; when it returns, no thread it started is running (see the type's comment). Parked long
    /// polls are answered: the record if one came, else 503 with `Connection: close`.
    package func stop() {
        let wasRunning = lifecycle.withLock { state -> Bool in
            defer { state = .stopped }
            return state == .running
        }
        guard wasRunning else {
            completions.withLock { $0.loopAlive = false }
            return
        }
        let running = longPolls.withLock { polls in
            polls.stopping = true
            return Array(polls.running.values)
        }
        for poll in running { poll.cancellation.cancel() }
        for poll in running { _ = poll.thread.join(within: Self.longPollStopBound) }
        if let stopEvent { event_active(stopEvent, Int32(EV_READ), 0) } else { event_base_loopbreak(base) }
        loopThread?.join()
        // A long poll that outlived its bound finds the loop gone and never touches the base.
        completions.withLock { $0.loopAlive = false }
    }

    /// Test hook: long-poll threads started and not yet joined.
    var runningLongPolls: Int { longPolls.withLock { $0.running.count } }

    // MARK: - Loop thread

    private func handle(_ request: OpaquePointer) {
        let headers = evhttp_request_get_input_headers(request)
        let header = { (name: String) in evhttp_find_header(headers, name).map { String(cString: $0) } }
        let method = evhttp_request_get_command(request) == EVHTTP_REQ_POST ? "POST"
            : evhttp_request_get_command(request) == EVHTTP_REQ_PUT ? "PUT" : "other"
        if let refusal = requestGuard.refusal(
            method: method, host: header("Host"), origin: header("Origin"), contentType: header("Content-Type")) {
            send(refusal, to: request)
            return
        }
        let adminRequest = read(request)
        switch router.route(adminRequest) {
        case .respond(let response):
            send(response, to: request)
        case .waitForDelivery(let filter, let afterID, let timeout):
            park(request, filter: filter, afterID: afterID, timeout: timeout)
        }
    }

    private func read(_ request: OpaquePointer) -> AdminRequest {
        let method: String
        switch evhttp_request_get_command(request) {
        case EVHTTP_REQ_GET: method = "GET"
        case EVHTTP_REQ_POST: method = "POST"
        case EVHTTP_REQ_DELETE: method = "DELETE"
        case EVHTTP_REQ_PUT: method = "PUT"
        case EVHTTP_REQ_HEAD: method = "GET"
        default: method = "OTHER"
        }
        let uri = evhttp_request_get_uri(request).map { String(cString: $0) } ?? "/"
        let headers = evhttp_request_get_input_headers(request)
        let authorization = evhttp_find_header(headers, "Authorization").map { String(cString: $0) }
        var body = Data()
        if let buffer = evhttp_request_get_input_buffer(request) {
            let length = evbuffer_get_length(buffer)
            if length > 0, let bytes = evbuffer_pullup(buffer, -1) {
                body = Data(bytes: bytes, count: length)
            }
        }
        return AdminRequest(method: method, uri: uri, authorization: authorization, body: body)
    }

    /// A HEAD request (answered as GET) gets the GET answer's headers with its `Content-Length`, and no body
    /// (RFC 9110 §9.3.2): evhttp would send the body.
    private func send(_ response: AdminResponse, to request: OpaquePointer) {
        let headers = evhttp_request_get_output_headers(request)
        evhttp_add_header(headers, "Content-Type", response.contentType)
        for header in response.extraHeaders {
            evhttp_add_header(headers, header.name, header.value)
        }
        let buffer = evbuffer_new()
        if evhttp_request_get_command(request) == EVHTTP_REQ_HEAD {
            evhttp_add_header(headers, "Content-Length", "\(response.body.count)")
        } else {
            response.body.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { evbuffer_add(buffer, base, bytes.count) }
            }
        }
        evhttp_send_reply(request, Int32(response.status), Self.reasonPhrase(response.status), buffer)
        evbuffer_free(buffer)
    }

    private func park(_ request: OpaquePointer, filter: DeliveryFilter, afterID: Int64, timeout: Duration) {
        guard parked.count < Self.maxParkedLongPolls else {
            send(.error(503, "too many long polls in progress"), to: request)
            return
        }
        nextTicket += 1
        let ticket = nextTicket
        let store = router.store
        let router = router
        let completions = completions
        // The thread holds the store, the router and the completions box, never the server: a server released
        // while a long poll outlived `stop()`'s bound is still freed where it is released.
        let cancellation = LongPollCancellation()
        let started = longPolls.withLock { polls -> LongPollStart in
            guard !polls.stopping else { return .stopping }
            do throws(ThreadStartError) {
                let thread = try JoinableThread(name: "apns-admin-poll") {
                    let outcome = Result { () throws(DeliveryStoreError) in
                        try store.waitForNext(filter, after: afterID, timeout: timeout, cancellation: cancellation)
                    }
                    let response: AdminResponse
                    if case .success(nil) = outcome, cancellation.isCancelled {
                        response = Self.stoppingAnswer
                    } else {
                        response = router.longPollResponse(outcome)
                    }
                    completions.withLock { state in
                        guard state.loopAlive, let wakeEvent = state.wakeEvent else { return }
                        state.ready.append((ticket, response))
                        event_active(wakeEvent, Int32(EV_READ), 0)
                    }
                }
                polls.running[ticket] = (thread, cancellation)
                return .started
            } catch {
                return .failed(error.description)
            }
        }
        switch started {
        case .stopping:
            send(Self.stoppingAnswer, to: request)
            return
        case .failed(let message):
            send(.error(503, message), to: request)
            return
        case .started:
            break
        }
        let connection = evhttp_request_get_connection(request)
        parked[ticket] = ParkedRequest(request: request, connection: connection)
        if let connection {
            evhttp_connection_set_closecb(connection, { connection, context in
                guard let connection, let context else { return }
                Unmanaged<AdminServer>.fromOpaque(context).takeUnretainedValue().connectionClosed(connection)
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// What a long poll gets when the server stops before a record came.
    static let stoppingAnswer: AdminResponse = {
        var response = AdminResponse.error(503, "the admin API is stopping")
        response.extraHeaders.append(.init(name: "Connection", value: "close"))
        return response
    }()

    /// Sends the answers long-poll threads queued; once `stop()` has begun, the loop ends only after they are written.
    private func sendFinishedLongPolls() {
        let ready = completions.withLock { state in
            defer { state.ready = [] }
            return state.ready
        }
        guard !ready.isEmpty else { return }
        let stopping = longPolls.withLock { $0.stopping }
        for (ticket, response) in ready {
            // The thread has queued its answer, its last act: joining it waits only for its return.
            longPolls.withLock { $0.running.removeValue(forKey: ticket) }?.thread.join()
            guard let entry = parked.removeValue(forKey: ticket) else { continue }
            if stopping { awaitWrite(of: entry) }
            send(response, to: entry.request)
        }
    }

    /// The stop event, on the loop: answers every parked request (the finished long polls' answers, 503 for any
    /// whose thread outlived the bound) and ends the loop once those answers are written or their connections gone.
    private func answerParkedAndEnd() {
        sendFinishedLongPolls()
        let remaining = parked
        parked.removeAll()
        for entry in remaining.values {
            awaitWrite(of: entry)
            send(Self.stoppingAnswer, to: entry.request)
        }
        ending = true
        if unwrittenStopAnswers.isEmpty {
            event_base_loopbreak(base)
        } else {
            var bound = timeval(tv_sec: Int(Self.replyStopBound), tv_usec: 0)
            event_base_loopexit(base, &bound)
        }
    }

    private func endIfAllStopAnswersWritten() {
        if ending && unwrittenStopAnswers.isEmpty { event_base_loopbreak(base) }
    }

    /// While stopping: the loop ends only once the answer about to be sent to `entry` is written (or its
    /// connection gone).
    private func awaitWrite(of entry: ParkedRequest) {
        unwrittenStopAnswers.append(entry)
        evhttp_request_set_on_complete_cb(entry.request, { request, context in
            guard let request, let context else { return }
            Unmanaged<AdminServer>.fromOpaque(context).takeUnretainedValue().stopAnswerWritten(request)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func stopAnswerWritten(_ request: OpaquePointer) {
        unwrittenStopAnswers.removeAll { $0.request == request }
        endIfAllStopAnswersWritten()
    }

    /// libevent is about to free the connection and its pending requests: forget parked ones on it.
    private func connectionClosed(_ connection: OpaquePointer) {
        for (ticket, entry) in parked where entry.connection == connection {
            parked.removeValue(forKey: ticket)
        }
        guard unwrittenStopAnswers.contains(where: { $0.connection == connection }) else { return }
        unwrittenStopAnswers.removeAll { $0.connection == connection }
        endIfAllStopAnswersWritten()
    }

    // MARK: - Helpers

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 422: "Unprocessable Entity"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

/// Why the admin server could not start.
package enum AdminServerError: Error, Sendable, CustomStringConvertible {
    case bind(host: String, port: Int, errno: Int32)
    case libevent(String)

    package var description: String {
        switch self {
        case .bind(let host, let port, let code):
            return "cannot listen on \(host):\(port) for the admin API: \(String(cString: strerror(code)))"
        case .libevent(let message): return "admin server: \(message)"
        }
    }
}
