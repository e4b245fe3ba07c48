import APNSCore
import Testing
@testable import APNSMock

@Suite struct DeliveryRecorderTests {
    static let jwt = "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJl"

    @Test func theAuthorizationValueIsNeverRecordedWhole() {
        let request = HTTPRequest(method: "POST", path: "/3/device/aa", authority: "localhost",
                                  headers: [HeaderField("authorization", "bearer \(Self.jwt)"), HeaderField("apns-topic", "t")])
        let headers = DeliveryRecorder.recordedHeaders(request)
        #expect(!headers.contains { $0.value.contains(Self.jwt) })
        #expect(headers.map(\.name) == [":method", ":path", ":scheme", ":authority", "authorization", "apns-topic"])
        #expect(headers.first { $0.name == "authorization" }?.value.hasPrefix("bearer <redacted fingerprint:") == true)
    }

    /// The rules' verdict for a push carrying `authorization`, judged by an authenticator that knows no key.
    static func findings(authorization: String) -> PushFindings {
        let request = HTTPRequest(
            method: "POST", path: "/3/device/aa",
            headers: [HeaderField("authorization", authorization), HeaderField("apns-topic", "com.example.app")])
        let validator = PushValidator(configuration: RuleConfiguration(), tokens: DeviceTokenRegistry())
        let authenticator = ProviderTokenAuthenticator(registry: SigningKeyRegistry(), cache: VerifiedTokenCache())
        return validator.evaluateRules(
            request, authenticator: authenticator, now: Timestamp(secondsSinceEpoch: 1_700_000_000)).findings
    }

    @Test func aRejectedTokenStillShowsItsDecodedHeaderAndClaims() throws {
        let findings = Self.findings(authorization: "bearer \(Self.jwt)")
        #expect(findings.sender == nil)
        let summary = try #require(DeliveryRecorder.providerTokenSummary(findings))
        #expect(summary.header == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        #expect(summary.claims == #"{"iss":"TEAM123456","iat":1700000000}"#)
        #expect(!summary.fingerprint.isEmpty)
    }

    @Test func aTokenThatIsNotAJWTShowsWhatDecodes() throws {
        let twoSegments = Self.jwt.split(separator: ".").prefix(2).joined(separator: ".")
        let summary = try #require(DeliveryRecorder.providerTokenSummary(Self.findings(authorization: "bearer \(twoSegments)")))
        #expect(summary.header == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        #expect(summary.claims == #"{"iss":"TEAM123456","iat":1700000000}"#)
        #expect(summary.fingerprint == VerifiedToken.fingerprint(of: Substring(twoSegments)))
    }
}
