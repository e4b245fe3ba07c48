import HTTP2
import APNSCore
import APNSJSON
import Foundation

/// How `PushSender` behaves.
package struct PushSenderConfiguration: Sendable {
    package var endpoint: HTTP2Endpoint
    package var tls: TLSClientConfiguration
    /// Signs `authorization: bearer <token>`; nil sends no token (certificate-based or unauthenticated peers).
    package var tokens: ProviderTokenCache?
    /// Requests in flight per connection (never more than the server's MAX_CONCURRENT_STREAMS).
    package var concurrency: Int
    /// Connections opened in parallel, each with its own thread.
    package var connections: Int
    /// How many times a push answered 429, 500 or 503 is sent again (A-RESP: retry these with back-off).
    package var retries: Int
    /// Seconds before the first retry; doubled for each later one.
    package var backoff: Double
    package var requestTimeout: Double
    package var connectTimeout: Double
    /// Live Activity pushes to one token one at a time, in order.
    package var keepLiveActivityOrder: Bool

    package init(
        endpoint: HTTP2Endpoint, tls: TLSClientConfiguration = TLSClientConfiguration(), tokens: ProviderTokenCache? = nil,
        concurrency: Int = 1, connections: Int = 1, retries: Int = 2, backoff: Double = 1, requestTimeout: Double = 30,
        connectTimeout: Double = 10, keepLiveActivityOrder: Bool = true
    ) {
        self.endpoint = endpoint
        self.tls = tls
        self.tokens = tokens
        self.concurrency = concurrency
        self.connections = connections
        self.retries = retries
        self.backoff = backoff
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.keepLiveActivityOrder = keepLiveActivityOrder
    }
}

/// Sends pushes the way Apple asks a provider to (A-SEND, A-CONN, A-RESP, A-TOKEN): long-lived HTTP/2
/// connections carrying many streams, one provider token reused across pushes and connections, a fresh token after
/// 403 ExpiredProviderToken, 429/500/503 retried with back-off, no further pushes to a token answered 410, and
/// after GOAWAY a new connection for what the old one did not process.
package final class PushSender: Sendable {
    package let configuration: PushSenderConfiguration
    private let state = Locked(RunState())
    private let output = NSLock()

    private struct RunState {
        var summary = PushRunSummary()
        var connectionsOpened = 0
        var activeThreads = 0
        var everConnected = false
    }

    /// An attempt in flight on one connection.
    private struct Attempt {
        var index: Int
        var attempt: Int
        var token: String?
        var started: ContinuousClock.Instant
        var history: [String]
    }

    package init(configuration: PushSenderConfiguration) {
        self.configuration = configuration
    }

    /// Pushes answered so far (for a progress line; any thread).
    package var completed: Int { state.withLock { $0.summary.total } }

    /// Sends `count` pushes (`job(i)` builds push i) and returns when each has its outcome. `onOutcome` is called
    /// once per push, one call at a time, from the sending threads.
    package func send(
        count: Int, job: @escaping @Sendable (Int) -> BuiltPush, onOutcome: @escaping @Sendable (PushOutcome) -> Void
    ) -> PushRunSummary {
        let started = ContinuousClock.now
        let threads = max(1, min(configuration.connections, count))
        // Each thread is a lane of the queue with its own share of the pushes, so the spread is exact.
        let queue = PushWorkQueue(count: count, keepOrder: configuration.keepLiveActivityOrder, lanes: threads, job: job)
        let group = DispatchGroup()
        state.withLock { $0.activeThreads = threads }
        for lane in 0..<threads {
            group.enter()
            let thread = Thread { [self] in
                runConnections(queue: queue, lane: lane, onOutcome: onOutcome)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        return state.withLock { state in
            var summary = state.summary
            summary.elapsed = (ContinuousClock.now - started).inSeconds
            summary.connectionsOpened = state.connectionsOpened
            return summary
        }
    }

    private func report(_ outcome: PushOutcome, _ onOutcome: @Sendable (PushOutcome) -> Void) {
        state.withLock { $0.summary.add(outcome) }
        output.withLock { onOutcome(outcome) }
    }

    /// One thread's connections, one after another (a new one after GOAWAY or a lost connection).
    private func runConnections(
        queue: PushWorkQueue, lane: Int, onOutcome: @escaping @Sendable (PushOutcome) -> Void
    ) {
        var failuresInARow = 0
        var fruitlessConnections = 0
        while !queue.isFinished {
            // A server that closes every connection before answering anything would keep us reconnecting forever.
            if fruitlessConnections >= 5 {
                let dropped = queue.abandonUnsent()
                state.withLock {
                    $0.summary.notSent += dropped
                    $0.summary.connectionError = $0.summary.connectionError ?? "\(configuration.endpoint) closed \(fruitlessConnections) connections in a row without answering"
                }
                break
            }
            let connection: HTTP2ClientConnection
            do {
                connection = try HTTP2ClientConnection(
                    endpoint: configuration.endpoint, tls: configuration.tls, timeout: configuration.connectTimeout)
            } catch {
                failuresInARow += 1
                let giveUp = state.withLock { state -> Bool in
                    // A thread that never connected stops at once (the others carry the work); once a connection
                    // has worked, a lost one is retried a few times with back-off.
                    if !state.everConnected || failuresInARow >= 4 {
                        state.activeThreads -= 1
                        if state.activeThreads == 0 {
                            state.summary.connectionError = "\(error)"
                            return true
                        }
                        return true
                    }
                    return false
                }
                if giveUp {
                    queue.release(lane: lane)
                    if state.withLock({ $0.activeThreads == 0 }) {
                        let dropped = queue.abandonUnsent()
                        state.withLock { $0.summary.notSent += dropped }
                    }
                    return
                }
                Thread.sleep(forTimeInterval: 0.1 * Double(1 << failuresInARow))
                continue
            }
            failuresInARow = 0
            let number = state.withLock { state -> Int in
                state.connectionsOpened += 1
                state.everConnected = true
                if state.summary.alpn == nil { state.summary.alpn = connection.alpn }
                if state.summary.tlsVersion == nil { state.summary.tlsVersion = connection.tlsVersion }
                return state.connectionsOpened
            }
            let finishedBefore = queue.finished
            let (end, retired) = exchange(on: connection, number: number, queue: queue, lane: lane, onOutcome: onOutcome)
            fruitlessConnections = queue.finished > finishedBefore ? 0 : fruitlessConnections + 1
            state.withLock { $0.summary.peakInFlight = max($0.summary.peakInFlight, connection.peakInFlight) }
            if case .finished = end, retired {
                connection.close()
                continue
            }
            if case .finished = end {
                // Nothing left to take: what other connections still carry (and any retry of it) stays with them.
                connection.close()
                break
            }
        }
        state.withLock { $0.activeThreads -= 1 }
    }

    private func exchange(
        on connection: HTTP2ClientConnection, number: Int, queue: PushWorkQueue, lane: Int,
        onOutcome: @escaping @Sendable (PushOutcome) -> Void
    ) -> (HTTP2ClientConnection.End, retired: Bool) {
        var inFlight: [Int: Attempt] = [:]
        var nextTag = 0
        // After 403 ExpiredProviderToken the fresh token goes on a new connection: APNs counts token changes per
        // connection and answers 429 TooManyProviderTokenUpdates to a second token within 20 minutes (A-TOKEN).
        var retired = false
        let end = connection.exchange(maxInFlight: configuration.concurrency, requestTimeout: configuration.requestTimeout) {
            if retired { return .done }
            switch queue.take(lane: lane, skip: { index, why in
                var outcome = PushOutcome(index: index, deviceToken: queue.push(at: index).deviceToken)
                outcome.skipped = why
                report(outcome, onOutcome)
            }) {
            case .done: return .done
            case .wait(let seconds): return .wait(seconds)
            case .push(let index, let attempt):
                var request = queue.push(at: index).request
                var token: String?
                if let tokens = configuration.tokens {
                    do {
                        token = try tokens.token()
                    } catch {
                        var outcome = PushOutcome(index: index, deviceToken: queue.push(at: index).deviceToken, attempts: attempt - 1)
                        outcome.error = "cannot sign a provider token: \(error)"
                        queue.finish(index, deviceToken: outcome.deviceToken, goneReason: nil)
                        report(outcome, onOutcome)
                        return .wait(0)
                    }
                    request.headers.insert(HeaderField("authorization", "bearer \(token!)"), at: 0)
                }
                nextTag += 1
                inFlight[nextTag] = Attempt(index: index, attempt: attempt, token: token, started: .now, history: pendingHistories.withLock { $0.removeValue(forKey: index) } ?? [])
                return .request(tag: nextTag, request)
            }
        } completed: { tag, result in
            guard let attempt = inFlight.removeValue(forKey: tag) else { return }
            let push = queue.push(at: attempt.index)
            var outcome = PushOutcome(
                index: attempt.index, deviceToken: push.deviceToken, attempts: attempt.attempt,
                latency: (ContinuousClock.now - attempt.started).inSeconds, connection: number)
            outcome.history = attempt.history
            switch result {
            case .success(let response):
                outcome.status = response.status
                outcome.apnsID = response.value("apns-id")
                outcome.apnsUniqueID = response.value("apns-unique-id")
                (outcome.reason, outcome.timestamp) = Self.errorBody(response.body)
                if let delay = retryDelay(for: outcome, attempt: attempt) {
                    if outcome.reason == "ExpiredProviderToken", let used = attempt.token {
                        configuration.tokens?.discard(used)
                        retired = true
                    }
                    let note = "\(outcome.answerLabel) on connection \(number); sent again" + (delay > 0 ? " after \(Self.format(delay)) s" : "")
                    pendingHistories.withLock { $0[attempt.index] = attempt.history + [note] }
                    queue.retry(attempt.index, attempt: attempt.attempt + 1, after: delay)
                    return
                }
            case .failure(let failure):
                if failure.notProcessed, attempt.attempt < 5 {
                    let note = "\(failure.message) on connection \(number); sent again"
                    pendingHistories.withLock { $0[attempt.index] = attempt.history + [note] }
                    queue.retry(attempt.index, attempt: attempt.attempt + 1, after: 0)
                    return
                }
                outcome.error = failure.message
            }
            let gone = outcome.status == 410 ? "its token was answered 410 \(outcome.reason ?? "") earlier in this run" : nil
            queue.finish(attempt.index, deviceToken: push.deviceToken, goneReason: gone)
            report(outcome, onOutcome)
        }
        return (end, retired)
    }

    /// Histories of pushes waiting for a retry, which another connection may send.
    private let pendingHistories = Locked<[Int: [String]]>([:])

    /// When to send again, or nil for a final answer: at once with a fresh token after 403 ExpiredProviderToken
    /// (once), after `backoff · 2^(n-1)` seconds for 429/500/503 (up to `retries` times), never otherwise.
    private func retryDelay(for outcome: PushOutcome, attempt: Attempt) -> Double? {
        guard let status = outcome.status else { return nil }
        if status == 403, outcome.reason == "ExpiredProviderToken", configuration.tokens != nil, attempt.attempt == 1 {
            return 0
        }
        if [429, 500, 503].contains(status), attempt.attempt <= configuration.retries {
            return configuration.backoff * Double(1 << min(attempt.attempt - 1, 16))
        }
        return nil
    }

    /// `reason` and `timestamp` of an error body `{"reason":"…","timestamp":…}` (A-RESP).
    static func errorBody(_ body: [UInt8]) -> (String?, Int64?) {
        guard let object = JSONValue.parse(body), object.isObject else { return (nil, nil) }
        return (object["reason"]?.stringValue, object["timestamp"]?.int64Value)
    }

    static func format(_ seconds: Double) -> String { String(format: "%.1f", seconds) }
}
