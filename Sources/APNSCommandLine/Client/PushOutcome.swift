import Foundation

/// What became of one push: APNs' answer (status, `apns-id`, `apns-unique-id`, `reason`, the 410 `timestamp`:
/// A-RESP), or why there was none.
package struct PushOutcome: Sendable, Equatable {
    /// The push's position in the run (0-based).
    package var index: Int
    package var deviceToken: String
    package var status: Int?
    package var apnsID: String?
    package var apnsUniqueID: String?
    package var reason: String?
    /// The 410 body's `timestamp` (milliseconds since the Epoch).
    package var timestamp: Int64?
    /// Why no answer came (connection refused or lost, stream reset, timeout).
    package var error: String?
    /// Why the push was not sent at all (its token answered 410 earlier in the run).
    package var skipped: String?
    /// Requests sent for this push (more than 1 after a retry).
    package var attempts: Int
    /// Seconds from sending the last attempt to its answer.
    package var latency: Double
    /// The connection (1-based, in the order they were opened) that carried the last attempt.
    package var connection: Int
    /// What happened before the final answer, one line per earlier attempt.
    package var history: [String]

    package init(index: Int, deviceToken: String, attempts: Int = 0, latency: Double = 0, connection: Int = 0) {
        self.index = index
        self.deviceToken = deviceToken
        self.attempts = attempts
        self.latency = latency
        self.connection = connection
        history = []
    }

    package var isAccepted: Bool { status == 200 }

    /// `200`, `400 BadDeviceToken`, `connection error`, `skipped`: the summary's buckets.
    package var answerLabel: String {
        if let status { return reason.map { "\(status) \($0)" } ?? String(status) }
        return skipped != nil ? "skipped" : "no answer"
    }
}

/// The run as a whole: counts, answers by reason, throughput and latency.
package struct PushRunSummary: Sendable, Equatable {
    package var total = 0
    package var accepted = 0
    package var rejected = 0
    /// Pushes with no answer (connection error, reset, timeout).
    package var failed = 0
    package var skipped = 0
    /// Pushes never sent because no connection could be made.
    package var notSent = 0
    /// Why no connection could be made, when that stopped the run.
    package var connectionError: String?
    package var answers: [String: Int] = [:]
    package var latencies: [Double] = []
    package var elapsed: Double = 0
    package var connectionsOpened = 0
    package var peakInFlight = 0
    package var alpn: String?
    package var tlsVersion: String?

    package init() {}

    package var requestsPerSecond: Double { elapsed > 0 ? Double(accepted + rejected) / elapsed : 0 }

    /// The latency below which `fraction` of the answered pushes fall (nearest rank).
    package func percentile(_ fraction: Double) -> Double? {
        guard !latencies.isEmpty else { return nil }
        let sorted = latencies.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// Exit status of `apns-mock push`: 0 every push accepted, 1 APNs rejected one, 2 a connection error.
    package var exitStatus: Int32 {
        if failed > 0 || notSent > 0 || connectionError != nil { return 2 }
        if rejected > 0 || skipped > 0 { return 1 }
        return 0
    }

    mutating func add(_ outcome: PushOutcome) {
        total += 1
        answers[outcome.answerLabel, default: 0] += 1
        if outcome.status == 200 { accepted += 1 } else if outcome.status != nil { rejected += 1 } else if outcome.skipped != nil { skipped += 1 } else { failed += 1 }
        if outcome.status != nil { latencies.append(outcome.latency) }
    }
}
