import HTTPContract
import CNative
import Foundation
import Synchronization

/// One thread running one libevent `event_base`, with its own listeners and the connections they accepted.
/// Everything but `post`, `requestShutdown`, `waitUntilStopped` and `connectionCount` runs on that thread. The
/// loop-thread `var`s touched per push are kept free of run-time exclusivity checks as `HTTP2ServerSession` explains.
final class EventLoopWorker: @unchecked Sendable {
    /// A response produced on any thread, waiting to be handed to its connection on this worker's thread.
    struct PendingResponse {
        var connectionID: UInt64
        var streamID: Int32
        var response: HTTPResponse
        var actions: [ConnectionAction]
    }

    let index: Int
    let base: OpaquePointer
    let tls: TLSContext?
    let settings: TransportSettings
    let application: any HTTP2Application
    let clock: any WallClock
    let faults: ConnectionFaults
    /// Request-body bytes buffered across the whole server (`TransportSettings.totalBodyBufferLimit`).
    let bodyBudget: BodyBufferBudget
    /// Re-enables accepting after a pause at the descriptor limit (`AcceptPause`).
    private(set) var acceptPause: AcceptPause?

    private var listeners: [(listener: OpaquePointer, configuration: ListenerConfiguration)] = []
    private var connections: [UInt64: ConnectionDriver] = [:]
    private var wakeEvent: OpaquePointer?
    /// Accepted sockets other threads handed to this one (`ConnectionHandoff`), and the event that takes them.
    let handoff = ConnectionHandoff()
    private var handoffEvent: OpaquePointer?
    /// Every worker of the server, to hand an accepted socket to the least loaded (set before threads start).
    let peers: EventLoopPeers
    private var shutdownEvent: OpaquePointer?
    private var shuttingDown = false
    private let inbox = Locked<[PendingResponse]>([])
    /// Responses produced on this worker's own thread (the in-memory store answers inside `handle`): queued without
    /// the inbox's lock and without waking the loop for each (`deliver`). Loop thread only.
    private var localInbox: [PendingResponse] = []
    /// The loop thread's `pthread_self()` while the loop runs (0 before), to tell `deliver` it runs there.
    private let loopThread = Atomic<UInt>(0)
    /// The responses being handed out (`deliverPendingResponses`) and the connections they went to; loop thread only.
    private var delivering: [PendingResponse] = []
    private var touched: [ConnectionDriver] = []
    /// Closed streams' objects, reused by every session of this thread.
    let spareStreams = SpareStreams(limit: 256)
    private let shutdownGrace = Locked<Double>(10)
    private let openConnections = Atomic<Int>(0)
    /// The loop thread (set by `startThread` before the loop runs; `waitUntilStopped` joins it).
    private var thread: JoinableThread?
    /// Timers of delayed responses and delayed connection starts (fault injection), freed when they fire or at exit.
    private var timers: [ObjectIdentifier: LoopTimer] = [:]

    init(index: Int, tls: TLSContext?, settings: TransportSettings, application: any HTTP2Application, clock: any WallClock,
         faults: ConnectionFaults = ConnectionFaults(), bodyBudget: BodyBufferBudget,
         peers: EventLoopPeers = EventLoopPeers()) throws {
        guard let base = event_base_new() else { throw TransportError.eventLoop("event_base_new failed") }
        self.index = index
        self.base = base
        self.tls = tls
        self.settings = settings
        self.application = application
        self.clock = clock
        self.faults = faults
        self.bodyBudget = bodyBudget
        self.peers = peers
        let me = Unmanaged.passUnretained(self).toOpaque()
        wakeEvent = event_new(base, -1, 0, { _, _, context in
            Unmanaged<EventLoopWorker>.fromOpaque(context!).takeUnretainedValue().deliverPendingResponses()
        }, me)
        handoffEvent = event_new(base, -1, 0, { _, _, context in
            Unmanaged<EventLoopWorker>.fromOpaque(context!).takeUnretainedValue().adoptHandedSockets()
        }, me)
        shutdownEvent = event_new(base, -1, 0, { _, _, context in
            Unmanaged<EventLoopWorker>.fromOpaque(context!).takeUnretainedValue().beginShutdown()
        }, me)
        acceptPause = AcceptPause(worker: self)
    }

    deinit {
        for timer in timers.values { timer.cancel() }
        acceptPause = nil
        for entry in listeners { evconnlistener_free(entry.listener) }
        if let wakeEvent { event_free(wakeEvent) }
        if let handoffEvent { event_free(handoffEvent) }
        if let shutdownEvent { event_free(shutdownEvent) }
        event_base_free(base)
    }

    var connectionCount: Int { openConnections.load(ordering: .relaxed) }

    /// Open connections plus sockets handed to this thread and not yet taken (`EventLoopPeers.leastLoaded`).
    var load: Int { connectionCount + handoff.pending }

    // MARK: - Start and stop (called from the main thread)

    /// Binds `configuration` on `port` with SO_REUSEPORT; returns the port actually bound.
    func listen(_ configuration: ListenerConfiguration, port: Int) throws -> Int {
        let address = configuration.host.contains(":") ? "[\(configuration.host)]:\(port)" : "\(configuration.host):\(port)"
        guard case (var storage, let length)? = Self.socketAddress(host: configuration.host, port: port) else {
            throw TransportError.listen("cannot parse address \(address): use an IPv4 or IPv6 literal or localhost")
        }
        let flags = UInt32(LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_REUSEABLE_PORT | LEV_OPT_CLOSE_ON_EXEC)
        let listener = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                evconnlistener_new_bind(base, acceptConnection, Unmanaged.passUnretained(self).toOpaque(), flags, 1024, $0, length)
            }
        }
        guard let listener else {
            throw TransportError.listen("cannot listen on \(address): \(String(cString: strerror(errno)))")
        }
        evconnlistener_set_error_cb(listener, acceptFailed)
        listeners.append((listener, configuration))
        return Self.boundPort(of: evconnlistener_get_fd(listener))
    }

    func startThread() throws {
        thread = try JoinableThread(name: "apns-loop-\(index)") { [self] in
            loopThread.store(UInt(pthread_self()), ordering: .relaxed)
            event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY)
            tearDown()
        }
    }

    func requestShutdown(gracePeriod: Double) {
        shutdownGrace.withLock { $0 = gracePeriod }
        event_active(shutdownEvent, 0, 0)
    }

    /// Returns once the loop thread has ended (at once if it never started): every connection, session and SSL
    /// object of this worker is freed by then, on that thread, and the thread holds no reference to the worker.
    func waitUntilStopped() {
        thread?.join()
    }

    /// Thread-safe: queue a response for a connection of this worker and wake the loop.
    func post(_ pending: consuming PendingResponse) {
        // Moved into the inbox, not copied (a retain of each of its arrays, and their release later).
        var item: PendingResponse? = pending
        inbox.withLock { $0.append(item.take()!) }
        event_active(wakeEvent, 0, 0)
    }

    // MARK: - On the loop thread

    fileprivate func accept(fd: Int32, address: UnsafeMutablePointer<sockaddr>?, listener: OpaquePointer?) {
        guard !shuttingDown, let configuration = listeners.first(where: { $0.listener == listener })?.configuration else {
            close(fd)
            return
        }
        let faultSettings = faults.current
        if let limit = faultSettings.maxConnections, faults.openConnections.load(ordering: .relaxed) >= limit {
            close(fd)
            return
        }
        let remote = address.map(Self.describe) ?? "unknown"
        let delay = faultSettings.startDelay(tls: configuration.useTLS)
        let target = peers.leastLoaded(preferring: self)
        if target !== self {
            // Counted until the other thread takes it over, so maxConnections holds meanwhile.
            faults.openConnections.wrappingAdd(1, ordering: .relaxed)
            let socket = ConnectionHandoff.Socket(fd: fd, remote: remote, configuration: configuration, startDelay: delay)
            if target.handoff.post(socket) {
                event_active(target.handoffEvent, 0, 0)
            } else {
                faults.openConnections.wrappingSubtract(1, ordering: .relaxed)
                close(fd)
            }
            return
        }
        admit(fd: fd, remote: remote, configuration: configuration, delay: delay)
    }

    /// Sockets other threads accepted for this one: started here as if accepted here (not during shutdown).
    private func adoptHandedSockets() {
        for socket in handoff.take() {
            faults.openConnections.wrappingSubtract(1, ordering: .relaxed)
            guard !shuttingDown else {
                close(socket.fd)
                continue
            }
            admit(fd: socket.fd, remote: socket.remote, configuration: socket.configuration, delay: socket.startDelay)
        }
    }

    /// Starts an accepted socket's connection now, or after the fault start delay.
    private func admit(fd: Int32, remote: String, configuration: ListenerConfiguration, delay: Int) {
        guard delay > 0 else {
            startConnection(fd: fd, remote: remote, configuration: configuration)
            return
        }
        faults.openConnections.wrappingAdd(1, ordering: .relaxed)
        schedule(afterMilliseconds: delay, onCancel: { close(fd) }) { [unowned self] in
            faults.openConnections.wrappingSubtract(1, ordering: .relaxed)
            guard !shuttingDown else {
                close(fd)
                return
            }
            startConnection(fd: fd, remote: remote, configuration: configuration)
        }
    }

    private func startConnection(fd: Int32, remote: String, configuration: ListenerConfiguration) {
        var noDelay: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let id = connectionIDs.wrappingAdd(1, ordering: .relaxed).newValue
        let localPort = Self.boundPort(of: fd)
        let options = Int32(BEV_OPT_CLOSE_ON_FREE.rawValue | BEV_OPT_DEFER_CALLBACKS.rawValue)
        let bufferEvent: OpaquePointer?
        if configuration.useTLS, let tls, let ssl = tls.newConnection() {
            bufferEvent = bufferevent_openssl_socket_new(base, fd, ssl, BUFFEREVENT_SSL_ACCEPTING, options)
        } else {
            bufferEvent = bufferevent_socket_new(base, fd, options)
        }
        guard let bufferEvent else {
            close(fd)
            return
        }
        let driver = ConnectionDriver(
            id: id, bufferEvent: bufferEvent, worker: self, remoteAddress: remote, localPort: localPort,
            listenerLabel: configuration.label)
        var open = connections
        connections = [:]
        open[id] = driver
        connections = open
        openConnections.wrappingAdd(1, ordering: .relaxed)
        faults.openConnections.wrappingAdd(1, ordering: .relaxed)
        driver.install()
        if !configuration.useTLS { driver.established(tls: nil) }
    }

    /// Stops or resumes accepting on every listener of this worker (`AcceptPause`; not during shutdown).
    func setAccepting(_ accepting: Bool) {
        guard !shuttingDown else { return }
        for entry in listeners {
            if accepting { evconnlistener_enable(entry.listener) } else { evconnlistener_disable(entry.listener) }
        }
    }

    func connectionDidClose(_ id: UInt64) {
        var open = connections
        connections = [:]
        let removed = open.removeValue(forKey: id)
        connections = open
        guard removed != nil else { return }
        openConnections.wrappingSubtract(1, ordering: .relaxed)
        faults.openConnections.wrappingSubtract(1, ordering: .relaxed)
        if shuttingDown && connections.isEmpty { event_base_loopbreak(base) }
    }

    /// Hands queued responses to their connections, then flushes each connection that got one: first those this
    /// thread queued itself, then those other threads posted.
    func deliverPendingResponses() {
        if !localInbox.isEmpty {
            swap(&localInbox, &delivering)
            deliverTaken()
        }
        // The inbox's array and this one change places under the lock, so both keep their storage from one wake
        // to the next (no array allocated per wake).
        inbox.withLock { swap(&$0, &delivering) }
        deliverTaken()
    }

    /// Delivers the responses in `delivering` and flushes their connections.
    private func deliverTaken() {
        guard !delivering.isEmpty else { return }
        // Both arrays are moved into locals while the connections are called, and back (emptied, storage kept):
        // no access to the stored properties stays open across those calls.
        var delivering: [PendingResponse] = []
        var touched: [ConnectionDriver] = []
        swap(&delivering, &self.delivering)
        swap(&touched, &self.touched)
        defer {
            delivering.removeAll(keepingCapacity: true)
            touched.removeAll(keepingCapacity: true)
            swap(&delivering, &self.delivering)
            swap(&touched, &self.touched)
        }
        // The connection of the previous item, looked up again only when the next item names another.
        var lastDriver: (id: UInt64, driver: ConnectionDriver?)?
        for index in delivering.indices {
            // Lent from the array (no copy of the response): the common item has no actions at all.
            if !delivering[index].actions.isEmpty, let delay = delivering[index].actions.lazy.compactMap({
                if case .delayResponse(let ms) = $0 { ms } else { nil }
            }).first {
                var delayed = delivering[index]
                delayed.actions.removeAll { if case .delayResponse = $0 { true } else { false } }
                schedule(afterMilliseconds: delay) { [unowned self, delayed] in
                    guard let driver = connections[delayed.connectionID] else { return }
                    driver.deliver(streamID: delayed.streamID, response: delayed.response, actions: delayed.actions)
                    driver.flush()
                }
                continue
            }
            let connectionID = delivering[index].connectionID
            let driver: ConnectionDriver?
            if let last = lastDriver, last.id == connectionID {
                driver = last.driver
            } else {
                driver = connections[connectionID]
                lastDriver = (connectionID, driver)
                if let driver, !touched.contains(where: { $0 === driver }) { touched.append(driver) }
            }
            guard let driver else { continue }
            driver.deliver(
                streamID: delivering[index].streamID, response: delivering[index].response,
                actions: delivering[index].actions)
        }
        for driver in touched { driver.flush() }
    }

    func makeSink(connectionID: UInt64, streamID: Int32) -> ResponseSink {
        ResponseSink(target: self, connectionID: connectionID, streamID: streamID)
    }

    private func beginShutdown() {
        shuttingDown = true
        for entry in listeners { evconnlistener_disable(entry.listener) }
        for driver in Array(connections.values) { driver.goAwayForShutdown() }
        if connections.isEmpty {
            event_base_loopbreak(base)
            return
        }
        let grace = shutdownGrace.withLock { $0 }
        var timeout = timeval(tv_sec: Int(grace), tv_usec: Int((grace - grace.rounded(.down)) * 1_000_000))
        event_base_loopexit(base, &timeout)
    }

    /// Runs `body` on this loop after `milliseconds` (a libevent timer, not a sleeping thread).
    private func schedule(afterMilliseconds milliseconds: Int, onCancel: @escaping () -> Void = {}, _ body: @escaping () -> Void) {
        let timer = LoopTimer(onCancel: onCancel)
        let key = ObjectIdentifier(timer)
        timer.fire = { [unowned self] in
            timers[key]?.free()
            timers[key] = nil
            body()
        }
        timers[key] = timer
        timer.start(base: base, milliseconds: milliseconds)
    }

    /// After the loop has ended, on its thread: closes every connection (its handler is told, its nghttp2 session
    /// deleted), cancels the timers, frees the listeners (the ports are free when shutdown returns), then runs the
    /// finalizers `bufferevent_free` left on the base, which free each connection's SSL object and close its socket.
    /// libevent defers those to the loop's next pass, and the loop has stopped: without this pass they ran in
    /// `event_base_free`, wherever the worker's last reference happened to go. What remains for `deinit` are plain
    /// libevent objects (the base and its internal events), none of them OpenSSL's or nghttp2's.
    private func tearDown() {
        for socket in handoff.close() {
            faults.openConnections.wrappingSubtract(1, ordering: .relaxed)
            close(socket.fd)
        }
        for timer in Array(timers.values) { timer.cancel() }
        timers.removeAll()
        for driver in Array(connections.values) { driver.close() }
        acceptPause = nil
        for entry in listeners { evconnlistener_free(entry.listener) }
        listeners.removeAll()
        event_base_loop(base, EVLOOP_NONBLOCK)
    }

    /// Test hook: callbacks waiting on this worker's base for a loop pass (pending finalizers among them).
    var pendingCallbacks: Int { Int(event_base_get_num_events(base, UInt32(EVENT_BASE_COUNT_ACTIVE))) }

    // MARK: - Socket helpers

    /// A numeric IPv4/IPv6 address (or `localhost`) and port as a socket address. Port 0 is allowed (the kernel
    /// chooses), which libevent's own parser refuses.
    static func socketAddress(host: String, port: Int) -> (sockaddr_storage, Int32)? {
        var storage = sockaddr_storage()
        let name = host == "localhost" ? "127.0.0.1" : host
        var ipv4 = sockaddr_in()
        if inet_pton(AF_INET, name, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = UInt16(port).bigEndian
            withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee = ipv4 } }
            return (storage, Int32(MemoryLayout<sockaddr_in>.size))
        }
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET6, name, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = UInt16(port).bigEndian
            withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee = ipv6 } }
            return (storage, Int32(MemoryLayout<sockaddr_in6>.size))
        }
        return nil
    }

    static func boundPort(of fd: Int32) -> Int {
        max(0, Int(cnative_bound_port(fd)))
    }

    static func describe(_ address: UnsafeMutablePointer<sockaddr>) -> String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let length = socklen_t(address.pointee.sa_family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        guard getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                          NI_NUMERICHOST | NI_NUMERICSERV) == 0 else { return "unknown" }
        let hostString = cString(host)
        let serviceString = cString(service)
        return address.pointee.sa_family == AF_INET6 ? "[\(hostString)]:\(serviceString)" : "\(hostString):\(serviceString)"
    }
}

extension EventLoopWorker: ResponseTarget {
    /// A stream sink's first answer (`ResponseSink`), from any thread: queued for the connection. On the loop's own
    /// thread it goes to the local inbox, which needs no lock; the loop is woken only for the first of a batch
    /// (the connection that is reading delivers them as soon as its requests are handled, `ConnectionDriver.readable`).
    func deliver(
        _ response: consuming HTTPResponse, actions: consuming [ConnectionAction], connectionID: UInt64, streamID: Int32
    ) {
        let pending = PendingResponse(connectionID: connectionID, streamID: streamID, response: response, actions: actions)
        guard loopThread.load(ordering: .relaxed) == UInt(pthread_self()) else {
            post(pending)
            return
        }
        var queued: [PendingResponse] = []
        swap(&queued, &localInbox)
        queued.append(pending)
        let first = queued.count == 1
        swap(&queued, &localInbox)
        if first { event_active(wakeEvent, 0, 0) }
    }
}

/// One pending libevent timer with the work it runs; `cancel` frees it without running the work.
private final class LoopTimer {
    var fire: () -> Void = {}
    private let onCancel: () -> Void
    private var event: OpaquePointer?

    init(onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    func start(base: OpaquePointer, milliseconds: Int) {
        event = event_new(base, -1, 0, { _, _, context in
            Unmanaged<LoopTimer>.fromOpaque(context!).takeUnretainedValue().fire()
        }, Unmanaged.passUnretained(self).toOpaque())
        var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        event_add(event, &timeout)
    }

    func free() {
        if let event { event_free(event) }
        event = nil
    }

    func cancel() {
        guard event != nil else { return }
        free()
        onCancel()
    }
}

private let acceptFailed: evconnlistener_errorcb = { _, context in
    let code = errno
    Unmanaged<EventLoopWorker>.fromOpaque(context!).takeUnretainedValue().acceptPause?.acceptFailed(errno: code)
}

private let acceptConnection: evconnlistener_cb = { listener, fd, address, _, context in
    Unmanaged<EventLoopWorker>.fromOpaque(context!).takeUnretainedValue().accept(fd: fd, address: address, listener: listener)
}

/// A NUL-terminated C buffer as a String.
func cString(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
