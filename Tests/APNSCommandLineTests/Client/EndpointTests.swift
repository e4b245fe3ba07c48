import HTTP2
import Testing
@testable import APNSCommandLine

/// URLs the user types for `--url`: scheme picks TLS or h2c, ports default per scheme, IPv6 in brackets.
@Suite struct EndpointTests {
    @Test(arguments: [
        ("https://localhost:2197", "localhost", 2197, true, "localhost:2197"),
        ("https://api.push.apple.com", "api.push.apple.com", 443, true, "api.push.apple.com"),
        ("http://127.0.0.1:2196/", "127.0.0.1", 2196, false, "127.0.0.1:2196"),
        ("HTTPS://[::1]:8443/3/device", "::1", 8443, true, "[::1]:8443"),
        ("http://example.com", "example.com", 80, false, "example.com"),
    ])
    func parsesURL(text: String, host: String, port: Int, tls: Bool, authority: String) throws {
        let endpoint = try #require(HTTP2Endpoint(url: text))
        #expect(endpoint.host == host)
        #expect(endpoint.port == port)
        #expect(endpoint.useTLS == tls)
        #expect(endpoint.authority == authority)
    }

    @Test(arguments: ["localhost:2197", "ftp://x", "https://", "https://host:0", "https://host:99999", "https://u@host", "https://[::1"])
    func refusesBadURL(text: String) {
        #expect(HTTP2Endpoint(url: text) == nil)
    }
}
