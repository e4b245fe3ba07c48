import APNSMock
import Foundation
import Testing

@Suite("Metrics: Prometheus text for /metrics")
struct MetricsTests {
    @Test("requests count by status, rejections by reason, latency lands in the first bucket that holds it")
    func counters() {
        let metrics = Metrics()
        metrics.recordRequest(status: 200, reason: nil, latencyMicroseconds: 90)
        metrics.recordRequest(status: 400, reason: "BadDeviceToken", latencyMicroseconds: 300)
        metrics.recordRequest(status: 400, reason: "BadDeviceToken", latencyMicroseconds: 2_000_000)
        let lines = Set(metrics.prometheusText().split(separator: "\n").map(String.init))
        #expect(lines.contains(#"apns_mock_requests_total{status="200"} 1"#))
        #expect(lines.contains(#"apns_mock_requests_total{status="400"} 2"#))
        #expect(lines.contains(#"apns_mock_rejections_total{reason="BadDeviceToken"} 2"#))
        #expect(lines.contains(#"apns_mock_response_latency_seconds_bucket{le="0.0001"} 1"#))
        #expect(lines.contains(#"apns_mock_response_latency_seconds_bucket{le="0.0005"} 2"#))
        #expect(lines.contains(#"apns_mock_response_latency_seconds_bucket{le="+Inf"} 3"#))
        #expect(lines.contains("apns_mock_response_latency_seconds_count 3"))
    }

    @Test("open connections go up and down, the total only up")
    func connections() {
        let metrics = Metrics()
        metrics.connectionOpened()
        metrics.connectionOpened()
        metrics.connectionClosed()
        let text = metrics.prometheusText()
        #expect(text.contains("apns_mock_connections_open 1\n"))
        #expect(text.contains("apns_mock_connections_total 2\n"))
    }

    @Test("label values escape quotes, backslashes and newlines")
    func escaping() {
        let metrics = Metrics()
        metrics.recordRequest(status: 500, reason: "a\"b\\c\nd", latencyMicroseconds: 1)
        #expect(metrics.prometheusText().contains(#"apns_mock_rejections_total{reason="a\"b\\c\nd"} 1"#))
    }

    /// Statuses below 600 are counted in a table indexed by status, any other in a dictionary: the text lists every
    /// status seen, in ascending order, with its count, and none it never saw.
    @Test("every status seen is listed once, in ascending order, from the table and beyond it")
    func statusesInOrder() {
        let metrics = Metrics()
        for status in [503, 0, 200, 700, 200, 429, -1, 599, 600, 503] {
            metrics.recordRequest(status: status, reason: "r", latencyMicroseconds: 1)
        }
        let lines = metrics.prometheusText().split(separator: "\n").filter { $0.hasPrefix("apns_mock_requests_total{") }
        #expect(lines == [
            #"apns_mock_requests_total{status="-1"} 1"#, #"apns_mock_requests_total{status="0"} 1"#,
            #"apns_mock_requests_total{status="200"} 2"#, #"apns_mock_requests_total{status="429"} 1"#,
            #"apns_mock_requests_total{status="503"} 2"#, #"apns_mock_requests_total{status="599"} 1"#,
            #"apns_mock_requests_total{status="600"} 1"#, #"apns_mock_requests_total{status="700"} 1"#,
        ])
    }

    /// Each thread counts in its own shard; the text sums them. More threads than shards, so some share one.
    @Test("requests recorded on many threads are all counted, once, in every figure")
    func manyThreads() {
        let metrics = Metrics()
        let threads = 12
        let perThread = 500
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                if index % 5 == 0 {
                    metrics.recordRequest(status: 410, reason: "Unregistered", latencyMicroseconds: 300)
                } else {
                    metrics.recordRequest(status: 200, reason: nil, latencyMicroseconds: 80 + Int64(thread))
                }
            }
        }
        let text = metrics.prometheusText()
        let total = threads * perThread
        let rejected = threads * perThread / 5
        let sum = Double(rejected * 300 + (total - rejected) * 80 + (0..<threads).reduce(0, +) * perThread * 4 / 5) / 1_000_000
        #expect(text.contains("apns_mock_requests_total{status=\"200\"} \(total - rejected)\n"))
        #expect(text.contains("apns_mock_requests_total{status=\"410\"} \(rejected)\n"))
        #expect(text.contains("apns_mock_rejections_total{reason=\"Unregistered\"} \(rejected)\n"))
        #expect(text.contains("apns_mock_response_latency_seconds_bucket{le=\"0.0001\"} \(total - rejected)\n"))
        #expect(text.contains("apns_mock_response_latency_seconds_bucket{le=\"0.0005\"} \(total)\n"))
        #expect(text.contains("apns_mock_response_latency_seconds_sum \(sum)\n"))
        #expect(text.contains("apns_mock_response_latency_seconds_count \(total)\n"))
    }

    /// The whole text for a few requests, byte for byte (one shard or several must read the same).
    @Test("the text is byte-identical to the exposition the admin API has always served")
    func wholeText() {
        let metrics = Metrics()
        metrics.recordRequest(status: 200, reason: nil, latencyMicroseconds: 90)
        metrics.recordRequest(status: 400, reason: "BadDeviceToken", latencyMicroseconds: 3_000)
        metrics.connectionOpened()
        let buckets = ["0.0001": 1, "0.00025": 1, "0.0005": 1, "0.001": 1, "0.0025": 1, "0.005": 2, "0.01": 2,
                       "0.025": 2, "0.05": 2, "0.1": 2, "0.25": 2, "1.0": 2]
        let bucketLines = ["0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1",
                           "0.25", "1.0"].map { "apns_mock_response_latency_seconds_bucket{le=\"\($0)\"} \(buckets[$0]!)\n" }
        #expect(metrics.prometheusText() == """
            # HELP apns_mock_requests_total Requests answered, by HTTP status.
            # TYPE apns_mock_requests_total counter
            apns_mock_requests_total{status="200"} 1
            apns_mock_requests_total{status="400"} 1
            # HELP apns_mock_rejections_total Requests answered with an error, by reason.
            # TYPE apns_mock_rejections_total counter
            apns_mock_rejections_total{reason="BadDeviceToken"} 1
            # HELP apns_mock_response_latency_seconds Time from request to answer.
            # TYPE apns_mock_response_latency_seconds histogram

            """ + bucketLines.joined() + """
            apns_mock_response_latency_seconds_bucket{le="+Inf"} 2
            apns_mock_response_latency_seconds_sum 0.00309
            apns_mock_response_latency_seconds_count 2
            # HELP apns_mock_connections_open Client connections open now.
            # TYPE apns_mock_connections_open gauge
            apns_mock_connections_open 1
            # HELP apns_mock_connections_total Client connections accepted since start.
            # TYPE apns_mock_connections_total counter
            apns_mock_connections_total 1

            """)
    }
}
