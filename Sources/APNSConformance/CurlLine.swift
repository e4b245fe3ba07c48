/// A `curl` command that sends a recorded request again, against the mock the environment names
/// (`APNS_MOCK_URL`, `APNS_MOCK_CA_FILE`) and with a provider token the user supplies in `JWT`.
package enum CurlLine {
    static let skippedHeaders: Set<String> = ["authorization", "content-length", "host", "user-agent", "accept", "accept-encoding", "content-type"]

    package static func shellQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    package static func reproduce(_ request: ObservedRequest) -> String {
        var parts = ["curl", "--http2", "--cacert", "\"$APNS_MOCK_CA_FILE\"", "-H", "\"authorization: bearer $JWT\""]
        for header in request.headers where !header.name.hasPrefix(":") && !skippedHeaders.contains(header.name.lowercased()) {
            parts += ["-H", shellQuote("\(header.name): \(header.value)")]
        }
        if let payload = request.payload { parts += ["--data-binary", shellQuote(payload)] }
        parts.append("\"$APNS_MOCK_URL\"" + shellQuote(request.path))
        return parts.joined(separator: " ")
    }
}
