import APNSMetrics
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
}
