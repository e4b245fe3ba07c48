/// Connection hygiene (A-CONN): keep connections open and reuse them, respect MAX_CONCURRENT_STREAMS, keep many
/// pushes in flight when many are due.
enum ConnectionGrader {
    static func byConnection(_ history: [ObservedRequest]) -> [(Int64, [ObservedRequest])] {
        var groups: [Int64: [ObservedRequest]] = [:]
        var order: [Int64] = []
        for request in history {
            if groups[request.connectionID] == nil { order.append(request.connectionID) }
            groups[request.connectionID, default: []].append(request)
        }
        return order.map { ($0, groups[$0]!) }
    }

    static func reuse(_ history: [ObservedRequest]) -> RuleResult {
        let connections = byConnection(history)
        let summary = "\(plural(history.count, "request")) on \(plural(connections.count, "connection"))"
        if history.count < 3 { return .notApplicable(.connectionReuse, summary + " (too few to judge)") }
        // A connection the mock closed on purpose (GOAWAY fault) is not the sender's choice.
        let singleUse = connections.filter { $0.1.count == 1 && !$0.1[0].endedConnection }
        var findings: [Finding] = []
        if singleUse.count * 2 >= history.count {
            findings.append(Finding(.fail, "\(singleUse.count) of \(plural(history.count, "request")) each opened a connection (a TLS handshake per push)", requests: singleUse.prefix(5).map { $0.1[0].id }))
        } else if connections.count > 1, singleUse.count * 4 >= history.count {
            findings.append(Finding(.warn, "\(singleUse.count) connections carried a single request", requests: singleUse.prefix(5).map { $0.1[0].id }))
        }
        return RuleResult(rule: .connectionReuse, summary: summary, findings: findings)
    }

    /// The most requests in flight at once on each connection, from receipt and answer times (an injected delay
    /// keeps the stream open until the answer is sent).
    static func maximumInFlight(_ requests: [ObservedRequest]) -> (count: Int, at: Int64?) {
        var events: [(time: Int64, delta: Int, id: Int64)] = []
        for request in requests {
            events.append((request.receivedAtNanos, 1, request.id))
            events.append((request.answerSentAtNanos, -1, request.id))
        }
        events.sort { ($0.time, $0.delta) < ($1.time, $1.delta) }
        var current = 0, best = 0
        var bestID: Int64?
        for event in events {
            current += event.delta
            if current > best { best = current; bestID = event.id }
        }
        return (best, bestID)
    }

    static func streams(_ history: [ObservedRequest], limit: Int) -> RuleResult {
        var findings: [Finding] = []
        var peak = 0
        for (connection, requests) in byConnection(history) {
            let inFlight = maximumInFlight(requests)
            peak = max(peak, inFlight.count)
            if inFlight.count > limit {
                findings.append(Finding(.fail, "connection \(connection) had \(inFlight.count) requests in flight; the server allows \(limit)", requests: inFlight.at.map { [$0] } ?? []))
            }
        }
        return RuleResult(rule: .connectionStreams, summary: "at most \(peak) in flight on one connection (limit \(limit))", findings: findings)
    }

    /// Answers must take long enough for overlap to be visible; on loopback with instant answers a sequential
    /// sender and a pipelining one look the same. Overlap that was seen is proof enough whatever the latency.
    static let observableLatencyMicroseconds: Int64 = 1000
    static let manyDue = 10

    static func pipelining(_ history: [ObservedRequest]) -> RuleResult {
        if history.count < manyDue { return .notApplicable(.connectionPipelining, "fewer than \(manyDue) requests") }
        let latencies = history.map(\.waitedMicroseconds).sorted()
        let median = latencies[latencies.count / 2]
        let peak = maximumInFlight(history).count
        if peak > 1 {
            return RuleResult(rule: .connectionPipelining, summary: "up to \(peak) requests in flight at once", findings: [])
        }
        if median < observableLatencyMicroseconds {
            return .notApplicable(.connectionPipelining, "answers took \(median) µs: too fast to see pipelining (add --inject delay=50)")
        }
        return RuleResult(
            rule: .connectionPipelining, summary: "\(plural(history.count, "request")), one at a time",
            findings: [Finding(.warn, "every request waited for the previous answer (median answer \(median / 1000) ms): throughput is bounded by round trips", requests: Array(history.prefix(2).map(\.id)))])
    }
}
