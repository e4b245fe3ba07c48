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
}
