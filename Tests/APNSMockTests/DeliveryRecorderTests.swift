import APNSCore
import Testing
@testable import APNSMock

@Suite struct DeliveryRecorderTests {
    static let jwt = "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzAwMDAwMDAwfQ.c2lnbmF0dXJl"

    @Test func theAuthorizationValueIsNeverRecordedWhole() {
        let request = HTTPRequest(method: "POST", path: "/3/device/aa", authority: "localhost",
                                  headers: [HeaderField("authorization", "bearer \(Self.jwt)"), HeaderField("apns-topic", "t")])
        let headers = RecordedHeaders.of(request)
        #expect(!headers.contains { $0.value.contains(Self.jwt) })
        #expect(headers.map(\.name) == [":method", ":path", ":scheme", ":authority", "authorization", "apns-topic"])
        #expect(headers.first { $0.name == "authorization" }?.value.hasPrefix("bearer <redacted fingerprint:") == true)
    }

    /// The fast path for "scheme token" writes what the general split-based form writes, for every shape of value.
    @Test(arguments: [
        "bearer \(jwt)", "Bearer x", "bearer  two-spaces", " leading", "bearer", "", "bearer ", "a b c", "ünï cødé",
    ])
    func theRedactedValueIsTheSplitForm(value: String) {
        let parts = value.split(separator: " ", maxSplits: 1)
        let expected = parts.count == 2
            ? "\(parts[0]) <redacted fingerprint:\(VerifiedToken.fingerprint(of: parts[1]))>"
            : value.isEmpty ? "" : "\(parts.first.map(String.init) ?? "") <redacted>"
        #expect(RecordedHeaders.redactedAuthorization(value) == expected)
    }

    /// A connection's memo gives each value its own redaction, whether it repeats the previous value or not.
    @Test func theConnectionMemoRedactsEachValueAsAfresh() {
        let memo = AuthorizationRedactionMemo()
        for value in ["bearer \(Self.jwt)", "bearer \(Self.jwt)", "bearer other", "", "bearer \(Self.jwt)", "Bearer x"] {
            #expect(memo.redaction(of: value) == RecordedHeaders.redactedAuthorization(value))
        }
    }

    /// Sixteen lower-case hex digits of the 64-bit FNV-1a hash, zero-padded.
    @Test func aFingerprintIsTheZeroPaddedFNV1aHash() {
        #expect(VerifiedToken.fingerprint(of: "") == "cbf29ce484222325")
        #expect(VerifiedToken.fingerprint(of: "a") == "af63dc4c8601ec8c")
        for index in 0..<2_000 {
            let text = "token-\(index)"
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            let hex = String(hash, radix: 16)
            #expect(VerifiedToken.fingerprint(of: Substring(text)) == String(repeating: "0", count: 16 - hex.count) + hex)
        }
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
