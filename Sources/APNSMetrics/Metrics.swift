import HTTPContract
import Foundation
import Synchronization

/// Counters for `GET /metrics`, in Prometheus text exposition format. Thread-safe; the pipeline records each
/// answered request and connection change, the admin server renders.
///
/// Names: `apns_mock_requests_total{status}`, `apns_mock_rejections_total{reason}`,
/// `apns_mock_response_latency_seconds` (histogram), `apns_mock_connections_open`, `apns_mock_connections_total`.
public final class Metrics: Sendable {
    /// Upper bounds of the latency histogram buckets, in microseconds.
    public static let latencyBucketsMicroseconds: [Int64] = [
        100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 1_000_000,
    ]

    private struct Counters {
        var requestsByStatus: [Int: Int64] = [:]
        var rejectionsByReason: [String: Int64] = [:]
        var latencyBuckets = [Int64](repeating: 0, count: Metrics.latencyBucketsMicroseconds.count)
        var latencyCount: Int64 = 0
        var latencySumMicroseconds: Int64 = 0
    }

    private let counters = Locked(Counters())
    private let connectionsOpen = Atomic<Int64>(0)
    private let connectionsTotal = Atomic<Int64>(0)

    public init() {}

    /// One answered request: its status, its reason (rejections only) and how long the answer took.
    public func recordRequest(status: Int, reason: String?, latencyMicroseconds: Int64) {
        counters.withLock { counters in
            counters.requestsByStatus[status, default: 0] += 1
            if status != 200 { counters.rejectionsByReason[reason ?? "none", default: 0] += 1 }
            if let bucket = Self.latencyBucketsMicroseconds.firstIndex(where: { latencyMicroseconds <= $0 }) {
                counters.latencyBuckets[bucket] += 1
            }
            counters.latencyCount += 1
            counters.latencySumMicroseconds += latencyMicroseconds
        }
    }

    public func connectionOpened() {
        connectionsOpen.add(1, ordering: .relaxed)
        connectionsTotal.add(1, ordering: .relaxed)
    }

    public func connectionClosed() {
        connectionsOpen.subtract(1, ordering: .relaxed)
    }

    /// Prometheus text format 0.0.4.
    public func prometheusText() -> String {
        let snapshot = counters.withLock { $0 }
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
        for (bound, count) in zip(Self.latencyBucketsMicroseconds, snapshot.latencyBuckets) {
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
