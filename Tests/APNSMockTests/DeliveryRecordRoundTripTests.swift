@testable import APNSCore
import Foundation
import Testing

@testable import APNSMock
@testable import APNSStore

/// The recorder builds each push's record once from its request and the pipeline's answer, and each store engine
/// gives it back as it was: checked over varied pushes (cleartext, TLS, client certificates, every form of
/// `authorization`, missing pseudo-headers, each kind of verdict, device outcomes, warnings, injected faults).
@Suite struct DeliveryRecordRoundTripTests {
    static let token = String(repeating: "0123456789abcdef", count: 10)
    static let jwt = "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJURUFNMTIzNDU2In0.c2ln"
    static let apnsID = "54A6AD69-5BF5-4984-A811-1CFEFFCB3841"

    static let certificate = PeerCertificate(
        subject: "UID=com.example.app,CN=Apple Push Services: com.example.app", issuer: "CN=CA",
        subjectAttributes: [CertificateAttribute(oid: ProviderCertificate.uidOID, value: "com.example.app")],
        extensions: [CertificateExtension(oid: ProviderCertificate.productionOID, critical: false, value: [5, 0])],
        sha256: "cd01", verification: .trusted)

    /// The connection's TLS facts.
    static let connections: [(String, TLSInfo?)] = [
        ("cleartext", nil),
        ("TLS", TLSInfo(alpn: "h2", version: "TLSv1.3", cipher: "TLS_AES_256_GCM_SHA384", serverName: "localhost")),
        ("TLS, no ALPN or SNI", TLSInfo(alpn: nil, version: "TLSv1.2", cipher: "ECDHE", serverName: nil)),
        ("TLS, trusted certificate", TLSInfo(
            alpn: "h2", version: "TLSv1.3", cipher: "TLS_AES_256_GCM_SHA384", serverName: nil,
            clientCertificate: certificate)),
        ("TLS, untrusted certificate without UID", TLSInfo(
            alpn: "h2", version: "TLSv1.3", cipher: "TLS_AES_256_GCM_SHA384", serverName: "localhost",
            clientCertificate: PeerCertificate(
                subject: "CN=x", issuer: "CN=x", subjectAttributes: [], extensions: [], sha256: "ef",
                verification: .untrusted("self-signed certificate")))),
    ]

    /// The `authorization` headers sent (none, one of each form, two).
    static let authorizations: [[String]] = [
        [], ["bearer \(jwt)"], ["Bearer x"], ["bearer"], [""], ["bearer  two-spaces"], ["ünï cødé"],
        ["bearer \(jwt)", "bearer other"],
    ]

    /// The request's own headers and body, apart from `authorization`.
    static let shapes: [(String, (scheme: String?, authority: String?, path: String, headers: [HeaderField], body: [UInt8]))] = [
        ("Live Activity update", ("https", "localhost", "/3/device/\(token)", [
            HeaderField("apns-id", apnsID), HeaderField("apns-topic", "com.example.app.push-type.liveactivity"),
            HeaderField("apns-push-type", "liveactivity"), HeaderField("apns-priority", "10"),
            HeaderField("apns-expiration", "1700000000"),
        ], Array(#"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#.utf8))),
        ("no scheme or authority, collapse id, repeated header", (nil, nil, "/3/device/\(token)", [
            HeaderField("apns-collapse-id", "c-1"), HeaderField("x-duplicate", "a"), HeaderField("x-duplicate", "a"),
            HeaderField("empty", ""),
        ], [])),
        ("path that is not the device's, non-UTF-8 body", ("https", nil, "/3/device/\(token)?x", [
            HeaderField("apns-topic", "com.example.app"), HeaderField("x-name", "ünïcode ✓"),
        ], [0xFF, 0x00, 0xC3])),
        ("bad path, upper-case id", ("http", "example.com:443", "/4/devices/ab", [
            HeaderField("apns-id", apnsID.lowercased()), HeaderField("apns-topic", String(repeating: "t", count: 1500)),
        ], Array(#"{"aps":{"alert":"hi"}}"#.utf8))),
    ]

    static let sender = AuthenticatedSender(
        teamID: "TEAM123456", keyID: "ABC123DEFG", tokenFingerprint: "b8d219bb793891f3",
        headerJSON: #"{"alg":"ES256","kid":"ABC123DEFG"}"#, claimsJSON: #"{"iss":"TEAM123456","iat":1}"#)
    static let warnings = [
        PushWarning(code: "la-content-state-unchecked", message: "content-state was not checked"),
        PushWarning(code: "warn.priority", message: "priority 10 for a Live Activity"),
    ]
    static let fault = InjectedFault(
        faultJSON: #"{"reason":"Unregistered","status":410}"#, index: 1, effect: "answer", rulesAnswer: "200")

    /// The pipeline's answers: each case of `Verdict`, with and without device outcome, unique id and fault.
    static func drafts(token: String?, apnsID: String) -> [(String, DeliveryDraft)] {
        let facts = PushFacts(
            deviceToken: token, topic: "com.example.app.push-type.liveactivity", pushType: .liveactivity, apnsID: apnsID)
        let accepted = PushFindings(facts: facts, warnings: warnings, sender: sender, environment: .production)
        let rejected = PushFindings(
            facts: PushFacts(deviceToken: token), explanation: "The token is not 64 hex digits.",
            ruleID: "token.shape", presentedToken: PresentedToken(headerJSON: nil, claimsJSON: #"{"iss":"T"}"#, fingerprint: "00ff"),
            environment: .development)
        let outcome = LiveActivityDeviceOutcome(code: "applied", explanation: "applied: content-state updated")
        return [
            ("accepted, device applied", DeliveryDraft(
                verdict: .accepted(accepted), apnsID: apnsID, uniqueID: "3a41b321-8c38-403e-b0b8-9df926a276ae",
                liveActivity: outcome)),
            ("accepted, no remarks", DeliveryDraft(
                verdict: .accepted(PushFindings(facts: PushFacts(deviceToken: token))), apnsID: apnsID, uniqueID: nil,
                liveActivity: nil)),
            ("rejected", DeliveryDraft(
                verdict: .rejected(APNsRejection(.badDeviceToken), rejected), apnsID: apnsID, uniqueID: nil,
                liveActivity: nil)),
            ("410 with timestamp", DeliveryDraft(
                verdict: .rejected(APNsRejection(.unregistered, timestamp: 1_700_000_000_000), accepted), apnsID: apnsID,
                uniqueID: "3A41B321-8C38-403E-B0B8-9DF926A276AE", liveActivity: nil)),
            ("strict mode", DeliveryDraft(
                verdict: .mockAnswer(MockAnswer(origin: .strictMode(code: "warn.priority"), status: 400,
                                                wireReason: "StrictModeWarning"), accepted),
                apnsID: apnsID, uniqueID: nil, liveActivity: nil)),
            ("device-strict", DeliveryDraft(
                verdict: .mockAnswer(MockAnswer(origin: .strictDevice, status: 400, wireReason: "StrictDevice"), accepted),
                apnsID: apnsID, uniqueID: nil, liveActivity: LiveActivityDeviceOutcome(code: "ignored", explanation: "stale"))),
            ("scripted answer", DeliveryDraft(
                verdict: .mockAnswer(MockAnswer(origin: .scripted, status: 410, wireReason: "Unregistered", timestamp: 5), accepted),
                apnsID: apnsID, uniqueID: nil, liveActivity: nil, injected: fault)),
            ("withheld answer", DeliveryDraft(
                verdict: .unanswered(rejected), apnsID: "generated-id", uniqueID: nil, liveActivity: outcome,
                injected: InjectedFault(faultJSON: #"{"blackHole":true}"#, index: 0, effect: "blackHole", rulesAnswer: "200"))),
        ]
    }

    /// The record spelled out field by field from the request and the verdict (the reference).
    static func referenceRecord(
        request: HTTPRequest, draft: DeliveryDraft, latencyMicroseconds: Int64
    ) -> DeliveryRecord {
        var tls = request.connection.tls
        var clientCertificate: ClientCertificateSummary?
        if let certificate = tls?.clientCertificate {
            tls?.clientCertificate = nil
            clientCertificate = ClientCertificateSummary(certificate)
        }
        var headers = [HeaderField(":method", request.method), HeaderField(":path", request.path)]
        if let scheme = request.scheme { headers.append(HeaderField(":scheme", scheme)) }
        if let authority = request.authority { headers.append(HeaderField(":authority", authority)) }
        for header in request.headers {
            headers.append(header.name == "authorization"
                ? HeaderField("authorization", RecordedHeaders.redactedAuthorization(header.value)) : header)
        }
        let verdict = draft.verdict
        return DeliveryRecord(
            receivedAt: request.receivedAt, connectionID: request.connection.id,
            clientAddress: request.connection.remoteAddress, environment: verdict.environment, tls: tls,
            method: request.method, path: request.path, deviceToken: verdict.deviceToken, headers: headers,
            providerToken: DeliveryRecorder.providerTokenSummary(verdict.findings), payload: request.body,
            status: verdict.status, reason: verdict.wireReason, apnsID: draft.apnsID, apnsUniqueID: draft.uniqueID,
            warnings: verdict.warnings, explanation: verdict.explanation, ruleID: verdict.ruleID,
            strict: verdict.isStrictMockAnswer, pushType: verdict.pushType?.rawValue, topic: verdict.topic,
            liveActivity: draft.liveActivity.map { RecordedLiveActivityOutcome(code: $0.code, explanation: $0.explanation) },
            latencyMicroseconds: latencyMicroseconds, injected: draft.injected, clientCertificate: clientCertificate)
    }

    /// One push per combination: every connection, authorization, shape and answer appears with several others.
    struct Case {
        let name: String
        let request: HTTPRequest
        let draft: DeliveryDraft
        let latency: Int64
    }

    static var cases: [Case] {
        var cases: [Case] = []
        for index in 0..<(connections.count * authorizations.count * shapes.count) {
            let (connectionName, tls) = connections[index % connections.count]
            let authorization = authorizations[(index / connections.count) % authorizations.count]
            let (shapeName, shape) = shapes[(index / (connections.count * authorizations.count)) % shapes.count]
            var headers = shape.headers
            for (offset, value) in authorization.enumerated() {
                headers.insert(HeaderField("authorization", value), at: min(offset * 2, headers.count))
            }
            let request = HTTPRequest(
                method: index % 9 == 4 ? "GET" : "POST", path: shape.path, scheme: shape.scheme,
                authority: shape.authority, headers: headers, body: shape.body, streamID: Int32(2 * index + 1),
                connection: ConnectionInfo(
                    id: UInt64(index % 3), remoteAddress: "127.0.0.1:\(50_000 + index % 3)", localPort: 2197, tls: tls,
                    listenerLabel: "development"),
                receivedAt: Timestamp(nanosecondsSinceEpoch: 1_795_426_496_280_755_712 + Int64(index)))
            let token: String? = shape.path.hasPrefix("/3/device/") ? (index % 2 == 0 ? token : token.uppercased()) : nil
            let drafts = drafts(token: token, apnsID: index % 5 == 0 ? apnsID.lowercased() : apnsID)
            let (draftName, draft) = drafts[index % drafts.count]
            cases.append(Case(
                name: "\(index): \(connectionName); authorization \(authorization); \(shapeName); \(draftName)",
                request: request, draft: draft, latency: Int64(index % 7) * 13 - 5))
        }
        return cases
    }

    @Test func theRecorderBuildsTheReferenceRecord() {
        let memo = AuthorizationRedactionMemo()
        for (number, test) in Self.cases.enumerated() {
            let record = DeliveryRecorder.record(
                request: test.request, draft: test.draft, latencyMicroseconds: test.latency,
                redactions: number % 2 == 0 ? memo : nil)
            let reference = Self.referenceRecord(request: test.request, draft: test.draft, latencyMicroseconds: test.latency)
            #expect(record == reference, "\(test.name)")
        }
    }

    enum Engine: String, CaseIterable { case sqlite, memory }

    /// Through each engine (the same encoded rows): every record reads back as the reference record.
    @Test(arguments: Engine.allCases)
    func theStoreGivesBackTheReferenceRecord(engine: Engine) throws {
        let memo = AuthorizationRedactionMemo()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("round-trip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let retention = RetentionPolicy(maxCount: 10_000, maxAge: nil)
        let store: any DeliveryStore = switch engine {
        case .sqlite: try SQLiteDeliveryStore(directory: directory.path, retention: retention)
        case .memory: InMemoryDeliveryStore(retention: retention)
        }
        defer { store.close() }
        for test in Self.cases {
            let record = DeliveryRecorder.record(
                request: test.request, draft: test.draft, latencyMicroseconds: test.latency, redactions: memo)
            let id = store.append(record) { _ in }
            store.flush()
            let reference = Self.referenceRecord(request: test.request, draft: test.draft, latencyMicroseconds: test.latency)
            #expect(try store.delivery(id: id) == reference.withID(id), "\(test.name)")
        }
    }
}
