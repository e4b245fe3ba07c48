import Testing
@testable import APNSMock

/// Without an admin token, requests a web page could make the developer's browser send are refused: foreign
/// Origins, Host names other than loopback (DNS rebinding), and writes that are not JSON (CORS "simple" requests).
@Suite struct AdminRequestGuardTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var method = "GET"
        var host: String? = "127.0.0.1:2198"
        var origin: String?
        var contentType: String?
        var token = false
        var adminHost = "127.0.0.1"
        var expectedStatus: Int?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "curl GET", expectedStatus: nil),
        Case(name: "no Host (HTTP/1.0)", host: nil, expectedStatus: nil),
        Case(name: "localhost with port", host: "localhost:2198", expectedStatus: nil),
        Case(name: "a *.localhost name", host: "app.localhost:2198", expectedStatus: nil),
        Case(name: "IPv6 loopback", host: "[::1]:2198", expectedStatus: nil),
        Case(name: "another 127/8 address", host: "127.0.0.2", expectedStatus: nil),
        Case(name: "DNS rebinding name", host: "attacker.example:2198", expectedStatus: 403),
        Case(name: "a look-alike loopback name", host: "127.0.0.1.attacker.example", expectedStatus: 403),
        Case(name: "the configured admin host", host: "10.0.0.5:2198", adminHost: "10.0.0.5", expectedStatus: nil),
        Case(name: "the inspector's own origin", method: "POST", origin: "http://127.0.0.1:2198", contentType: "application/json", expectedStatus: nil),
        Case(name: "localhost origin", origin: "http://localhost:2198", expectedStatus: nil),
        Case(name: "foreign origin", origin: "https://evil.example", expectedStatus: 403),
        Case(name: "another local dev server", origin: "http://localhost:3000", expectedStatus: 403),
        Case(name: "opaque origin", origin: "null", expectedStatus: 403),
        Case(name: "text/plain POST", method: "POST", contentType: "text/plain", expectedStatus: 415),
        Case(name: "form POST", method: "POST", contentType: "application/x-www-form-urlencoded", expectedStatus: 415),
        Case(name: "POST without type", method: "POST", expectedStatus: 415),
        Case(name: "JSON POST with charset", method: "POST", contentType: "application/json; charset=utf-8", expectedStatus: nil),
        Case(name: "a +json POST", method: "POST", contentType: "application/merge-patch+json", expectedStatus: nil),
        Case(name: "PUT is left to the router (never a CORS simple request)", method: "PUT", expectedStatus: nil),
        Case(name: "with a token the token decides", method: "POST", host: "attacker.example", origin: "https://evil.example",
             contentType: "text/plain", token: true, expectedStatus: nil),
        Case(name: "wildcard admin host", host: "my-laptop.lan:2198", adminHost: "0.0.0.0", expectedStatus: nil),
    ]

    @Test(arguments: cases)
    func requestsABrowserCouldBeTrickedIntoSendingAreRefused(_ example: Case) {
        let guardian = AdminRequestGuard(adminHost: example.adminHost, adminPort: 2198, tokenConfigured: example.token)
        let refusal = guardian.refusal(
            method: example.method, host: example.host, origin: example.origin, contentType: example.contentType)
        #expect(refusal?.status == example.expectedStatus)
    }
}
