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

    @Test func aRejectedTokenStillShowsItsDecodedHeaderAndClaims() throws {
        let request = HTTPRequest(method: "POST", path: "/3/device/aa", headers: [HeaderField("authorization", "bearer \(Self.jwt)")])
        let summary = try #require(DeliveryRecorder.unverifiedTokenSummary(request))
        #expect(summary.header == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        #expect(summary.claims == #"{"iss":"TEAM123456","iat":1700000000}"#)
        #expect(!summary.fingerprint.isEmpty)
    }
}
