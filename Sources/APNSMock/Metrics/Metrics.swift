import HTTPContract
import Foundation
import Synchronization

/// Counters for `GET /metrics`, in Prometheus text exposition format. Thread-safe; the pipeline records each
/// answered request and connection change, the admin server renders.
///
/// Names: `apns_mock_requests_total{status}`, `apns_mock_rejections_total{reason}`,
/// `apns_mock_response_latency_seconds` (histogram), `apns_mock_connections_open`, `apns_mock_connections_total`.
package final class Metrics: @unchecked Sendable {
    /// Upper bounds of the latency histogram buckets, in microseconds.
    package static let latencyBucketsMicroseconds: [Int64] = [
        100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 1_000_000,
    ]

    private struct Counters {
        /// Requests by status for the statuses below `Metrics.statusSlots` (every HTTP status, and 0 for a withheld
        /// answer), indexed by status: counted without hashing the status on every answered request.
        var requestsByStatusSlot = [Int64](repeating: 0, count: Metrics.statusSlots)
        /// Any other status.
        var requestsByOtherStatus: [Int: Int64] = [:]
        var rejectionsByReason: [String: Int64] = [:]
        /// The latency histogram's buckets, then the count and the sum of latencies in microseconds: in one heap
        /// buffer of this shard's, not inline in its `Locked` object, which sits next to the other shards' in memory
        /// (a counter changed per push there would share a cache line with another thread's).
        var latency = [Int64](repeating: 0, count: Metrics.latencyBucketsMicroseconds.count + 2)
        /// Makes the shard's `Locked` object, whose reference count each recording changes, over two cache lines
        /// long: another shard's object allocated next to it (the event loops' shards were made one after the
        /// other) does not share a cache line with its header.
        private var padding: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

        var latencyCount: Int64 { latency[Metrics.latencyBucketsMicroseconds.count] }
        var latencySumMicroseconds: Int64 { latency[Metrics.latencyBucketsMicroseconds.count + 1] }

        /// Every status counted so far (a slot with a count was seen).
        var requestsByStatus: [Int: Int64] {
            var all = requestsByOtherStatus
            for (status, count) in requestsByStatusSlot.enumerated() where count > 0 { all[status] = count }
            return all
        }

        /// One request counted.
        mutating func count(status: Int, reason: String?, latencyMicroseconds: Int64, bucket: Int?) {
            if status >= 0 && status < statusSlots {
                requestsByStatusSlot[status] += 1
            } else {
                requestsByOtherStatus[status, default: 0] += 1
            }
            if status != 200 { rejectionsByReason[reason ?? "none", default: 0] += 1 }
            if let bucket { latency[bucket] += 1 }
            latency[Metrics.latencyBucketsMicroseconds.count] += 1
            latency[Metrics.latencyBucketsMicroseconds.count + 1] += latencyMicroseconds
        }

        /// Adds another shard's counts to these.
        mutating func add(_ other: Counters) {
            for (status, count) in other.requestsByStatusSlot.enumerated() where count > 0 {
                requestsByStatusSlot[status] += count
            }
            requestsByOtherStatus.merge(other.requestsByOtherStatus, uniquingKeysWith: +)
            rejectionsByReason.merge(other.rejectionsByReason, uniquingKeysWith: +)
            for index in latency.indices { latency[index] += other.latency[index] }
        }
    }

    private static let statusSlots = 600

    /// Shards of the request counters: a thread counts in the shard of its `ThreadSlot` (event-loop
    /// threads in distinct shards), so that recording a request touches no lock or counter another event-loop
    /// thread touches (one shared lock and counters cost both threads a cache line bouncing between cores per
    /// push). A read takes each shard's lock in turn and sums them: it sees every request recorded before it.
    private let shards: [Locked<Counters>] = (0..<Metrics.shardCount).map { _ in Locked(Counters()) }
    private static let shardCount = 8
    private let connectionsOpen = Atomic<Int64>(0)
    private let connectionsTotal = Atomic<Int64>(0)

    package init() {}

    /// One answered request: its status, its reason (rejections only) and how long the answer took.
    package func recordRequest(status: Int, reason: String?, latencyMicroseconds: Int64) {
        let bucket = Self.latencyBucket(latencyMicroseconds)
        shards[ThreadSlot.current & (Self.shardCount - 1)].withLock {
            $0.count(status: status, reason: reason, latencyMicroseconds: latencyMicroseconds, bucket: bucket)
        }
    }

    /// The first bucket whose bound holds `latencyMicroseconds`; nil past the last bound.
    private static func latencyBucket(_ latencyMicroseconds: Int64) -> Int? {
        latencyBucketsMicroseconds.firstIndex { latencyMicroseconds <= $0 }
    }

    package func connectionOpened() {
        connectionsOpen.add(1, ordering: .relaxed)
        connectionsTotal.add(1, ordering: .relaxed)
    }

    package func connectionClosed() {
        connectionsOpen.subtract(1, ordering: .relaxed)
    }

    /// Prometheus text format 0.0.4.
    package func prometheusText() -> String {
        var snapshot = Counters()
        for shard in shards { snapshot.add(shard.withLock { $0 }) }
        var lines: [String] = []
        lines.append("# HELP apns_mock_requests_total Requests answered, by HTTP status.")
        lines.append("# TYPE apns_mock_requests_total counter")
        for (status, count) in snapshot.requestsByStatus.sorted(by: { $0.key < $1.key }) {
            lines.append("apns_mock_requests_total{status=\"\(status)\"} \(count)")
        }
        lines.append("# HELP apns_mock_rejections_total Requests answered with an error, by reason.")
        lines.append("# TYPE apns_mock_rejections_total counter")
        for (reason, count) in snapshot.rejectionsByReason.sorted(by: { $0.key < $1.key }) {
            lines.append("apns_mock_rejections_total{reason=\"\(Self.escapeLabel(reason))\"} \(count)")
        }
        lines.append("# HELP apns_mock_response_latency_seconds Time from request to answer.")
        lines.append("# TYPE apns_mock_response_latency_seconds histogram")
        var cumulative: Int64 = 0
        for (bound, count) in zip(Self.latencyBucketsMicroseconds, snapshot.latency) {
            cumulative += count
            lines.append("apns_mock_response_latency_seconds_bucket{le=\"\(Self.seconds(bound))\"} \(cumulative)")
        }
        lines.append("apns_mock_response_latency_seconds_bucket{le=\"+Inf\"} \(snapshot.latencyCount)")
        lines.append("apns_mock_response_latency_seconds_sum \(Self.seconds(snapshot.latencySumMicroseconds))")
        lines.append("apns_mock_response_latency_seconds_count \(snapshot.latencyCount)")
        lines.append("# HELP apns_mock_connections_open Client connections open now.")
        lines.append("# TYPE apns_mock_connections_open gauge")
        lines.append("apns_mock_connections_open \(connectionsOpen.load(ordering: .relaxed))")
        lines.append("# HELP apns_mock_connections_total Client connections accepted since start.")
        lines.append("# TYPE apns_mock_connections_total counter")
        lines.append("apns_mock_connections_total \(connectionsTotal.load(ordering: .relaxed))")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func seconds(_ microseconds: Int64) -> String {
        String(Double(microseconds) / 1_000_000)
    }

    /// Label values escape backslash, double quote and newline (exposition format).
    private static func escapeLabel(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
