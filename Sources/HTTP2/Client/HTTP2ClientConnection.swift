import HTTPContract

/// One HTTP/2 client connection: TLS with ALPN `h2` for `https://`, h2c with prior knowledge for `http://`.
/// Many requests in flight on one connection, never more than the server's SETTINGS_MAX_CONCURRENT_STREAMS, and
/// only one until the first answer ("APNs allows only one stream until you post a request with a valid
/// authentication token": A-SEND, A-CONN).
///
/// The owner pulls: `exchange` asks `next` for work whenever a stream is free and reports each answer to
/// `completed`, on the calling thread. Not thread-safe: one connection belongs to one thread (use one per thread
/// for several connections).
public final class HTTP2ClientConnection {
    /// What the owner has for the connection.
    public enum Next {
        /// Send this request; `tag` identifies it in `completed`.
        case request(tag: Int, HTTP2Request)
        /// Nothing now; ask again within this many seconds (or as soon as an answer arrives).
        case wait(Double)
        /// Nothing more: return once the requests in flight are answered.
        case done
    }

    /// Why `exchange` returned.
    public enum End: Equatable {
        /// `next` said `.done` and every request was answered.
        case finished
        /// The connection can take no more requests (GOAWAY, closed by the server, protocol error); requests that
        /// were in flight were reported to `completed` as failures.
        case closed(HTTP2ClientError)
    }

    public let endpoint: HTTP2Endpoint
    /// The ALPN protocol the server chose (nil on h2c or when the server chose none).
    public var alpn: String? { socket.alpn }
    public var tlsVersion: String? { socket.tlsVersion }
    /// The GOAWAY the server sent, if any.
    public var goAway: HTTP2GoAway? { session.goAway }
    /// The server's current SETTINGS_MAX_CONCURRENT_STREAMS.
    public var serverMaxConcurrentStreams: Int? { session.remoteMaxConcurrentStreams }
    /// The most requests this connection ever had in flight at once.
    public private(set) var peakInFlight = 0

    private let socket: ClientSocket
    private let session = HTTP2ClientSession()
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var deadlines: [Int: ContinuousClock.Instant] = [:]
    private var answered = 0
    private var ended: HTTP2ClientError?
    private var readBuffer = [UInt8](repeating: 0, count: 32 * 1024)

    /// Connects, sends the HTTP/2 preface and waits for the server's first SETTINGS frame, all within `timeout`
    /// seconds. Throws `.notHTTP2` when the server picks HTTP/1.1 in ALPN or answers the preface in HTTP/1.x.
    public init(endpoint: HTTP2Endpoint, tls: TLSClientConfiguration? = nil, timeout: Double = 10) throws(HTTP2ClientError) {
        self.endpoint = endpoint
        socket = try ClientSocket(host: endpoint.host, port: endpoint.port, tls: endpoint.useTLS ? (tls ?? TLSClientConfiguration()) : nil, timeout: timeout)
        if endpoint.useTLS, let alpn = socket.alpn, alpn != "h2" {
            socket.close()
            throw .notHTTP2("\(endpoint) chose \(alpn) in ALPN: it speaks HTTP/1.1 only, and APNs requires HTTP/2")
        }
        session.drainOutput(into: &output)
        let start = ContinuousClock.now
        while session.settingsFramesReceived == 0 {
            let remaining = timeout - (ContinuousClock.now - start).inSeconds
            guard remaining > 0 else { throw .protocolError("\(endpoint) sent no HTTP/2 SETTINGS within \(timeout) s") }
            let (readable, writable) = socket.wait(write: hasOutput, timeout: remaining)
            if writable { flush() }
            if readable, ended == nil { readAvailable(firstContact: true) }
            if let ended {
                socket.close()
                throw ended
            }
        }
    }

    deinit { socket.close() }

    /// Sends GOAWAY and closes the socket.
    public func close() {
        if ended == nil {
            session.terminate()
            session.drainOutput(into: &output)
            flush()
        }
        ended = ended ?? .closed("closed by the client")
        socket.close()
    }

    /// Runs requests until `next` says `.done` and all are answered, or the connection ends. At most
    /// `maxInFlight` requests at once (and no more than the server allows); a request unanswered after
    /// `requestTimeout` seconds is cancelled and reported as timed out.
    public func exchange(
        maxInFlight: Int, requestTimeout: Double = 30, next: () -> Next,
        completed: (Int, Result<HTTP2Response, HTTP2StreamFailure>) -> Void
    ) -> End {
        while true {
            var pause = 1.0
            var sourceDone = false
            submitting: while ended == nil, session.goAway == nil, session.openStreamCount < streamLimit(maxInFlight) {
                switch next() {
                case .request(let tag, let request):
                    submit(request, tag: tag, timeout: requestTimeout)
                case .wait(let seconds):
                    pause = max(0, seconds)
                    break submitting
                case .done:
                    sourceDone = true
                    break submitting
                }
            }
            deliver(completed)
            if sourceDone, session.openStreamCount == 0, ended == nil { return .finished }
            if let ended, session.openStreamCount == 0 { return .closed(ended) }
            if let goAway = session.goAway, session.openStreamCount == 0 {
                ended = .closed("GOAWAY from the server (\(goAway.reason ?? "no reason"))")
                socket.close()
                return .closed(ended!)
            }
            flush()
            let now = ContinuousClock.now
            let soonest = deadlines.values.min().map { ($0 - now).inSeconds } ?? pause
            let (readable, writable) = socket.wait(write: hasOutput, timeout: min(pause, max(0, soonest)))
            if writable { flush() }
            if readable { readAvailable(firstContact: false) }
            expireDeadlines()
            deliver(completed)
        }
    }

    // MARK: - Internals

    /// One stream until the first answer (A-SEND, A-CONN), then the server's limit.
    private func streamLimit(_ wanted: Int) -> Int {
        guard answered > 0 else { return 1 }
        return max(1, min(wanted, session.remoteMaxConcurrentStreams ?? wanted))
    }

    private func submit(_ request: HTTP2Request, tag: Int, timeout: Double) {
        switch session.submit(request, authority: endpoint.authority, scheme: endpoint.useTLS ? "https" : "http", tag: tag) {
        case .success:
            deadlines[tag] = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
            peakInFlight = max(peakInFlight, session.openStreamCount)
            session.drainOutput(into: &output)
        case .failure(let failure):
            pendingFailures.append((tag, .failure(failure)))
        }
    }

    private var pendingFailures: [(Int, Result<HTTP2Response, HTTP2StreamFailure>)] = []

    private func deliver(_ completed: (Int, Result<HTTP2Response, HTTP2StreamFailure>) -> Void) {
        let finished = pendingFailures + session.takeCompletions().map { ($0.tag, $0.result) }
        pendingFailures.removeAll()
        for (tag, result) in finished {
            deadlines[tag] = nil
            if case .success = result { answered += 1 }
            completed(tag, result)
        }
    }

    private func expireDeadlines() {
        let now = ContinuousClock.now
        for (tag, deadline) in deadlines where deadline <= now {
            deadlines[tag] = nil
            if let streamID = session.streamID(forTag: tag) {
                session.cancel(streamID: streamID, failure: HTTP2StreamFailure(.timedOut, "no answer in time"))
            }
        }
        session.drainOutput(into: &output)
    }

    private var hasOutput: Bool { outputOffset < output.count }

    private func flush() {
        while hasOutput {
            let written = output.withUnsafeBytes { socket.write(UnsafeRawBufferPointer(rebasing: $0[outputOffset...])) }
            guard let written else {
                lose(.closed("the connection broke while sending"))
                return
            }
            if written == 0 { break }
            outputOffset += written
        }
        if outputOffset == output.count {
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
        }
    }

    private func readAvailable(firstContact: Bool) {
        for _ in 0..<64 {
            let result = readBuffer.withUnsafeMutableBytes { socket.read(into: $0) }
            switch result {
            case .bytes(let count):
                if firstContact, session.settingsFramesReceived == 0, let problem = Self.http1Answer(readBuffer.prefix(count)) {
                    ended = .notHTTP2("\(endpoint) answered the HTTP/2 preface in HTTP/1.x (\(problem)): it speaks HTTP/1.1 only, and APNs requires HTTP/2")
                    return
                }
                let accepted = readBuffer.withUnsafeBytes { session.receive(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
                if !accepted {
                    lose(.protocolError(session.fatalError ?? "bad frame"))
                    return
                }
                session.drainOutput(into: &output)
            case .wouldBlock:
                return
            case .closed:
                if firstContact, session.settingsFramesReceived == 0 {
                    lose(.notHTTP2("\(endpoint) closed the connection in answer to the HTTP/2 preface, without a SETTINGS frame: it does not speak HTTP/2 (HTTP/1.x servers do this)"))
                } else {
                    let reason = session.goAway.map { "after GOAWAY (\($0.reason ?? "no reason"))" } ?? "by the server"
                    lose(.closed("the connection was closed \(reason)"))
                }
                return
            case .failed(let message):
                if firstContact, session.settingsFramesReceived == 0 {
                    lose(.notHTTP2("\(endpoint) broke off the connection in answer to the HTTP/2 preface (\(message)): it does not speak HTTP/2"))
                } else {
                    lose(.closed(message))
                }
                return
            }
        }
    }

    /// The connection is gone: everything in flight fails.
    private func lose(_ error: HTTP2ClientError) {
        if ended == nil { ended = error }
        session.failAll(HTTP2StreamFailure(.connectionLost, "\(error); the request may or may not have been delivered"))
        socket.close()
    }

    /// The status line when `bytes` begin an HTTP/1.x response.
    static func http1Answer(_ bytes: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: bytes.prefix(200), as: UTF8.self)
        guard text.hasPrefix("HTTP/1.") || text.hasPrefix("HTTP/0.") else { return nil }
        return String(text.prefix { $0 != "\r" && $0 != "\n" })
    }

}
