import APNSCore
import APNSMetrics
import APNSPipeline
import APNSStore
import Foundation

/// Turns one answered request into its immutable delivery record and hands it to the store. The response is sent
/// from the store's completion, so a 200 leaves only once its record is durable (group commit keeps that cheap);
/// when the store fails, `send(false)` and the caller answers `StoreFailureAnswer` instead.
final class DeliveryRecorder: Sendable {
    let store: any DeliveryStore
    let metrics: Metrics
    let health: StoreHealth
    /// The store when it is the in-memory one, appended to without a completion closure per push.
    private let inMemory: InMemoryDeliveryStore?

    init(store: any DeliveryStore, metrics: Metrics, health: StoreHealth = StoreHealth()) {
        self.store = store
        self.metrics = metrics
        self.health = health
        inMemory = store as? InMemoryDeliveryStore
    }

    /// `redactions`: the connection's memo of its last redacted `authorization` value (nil: redact afresh).
    func record(
        request: HTTPRequest, draft: DeliveryDraft, latencyMicroseconds: Int64,
        redactions: RedactedAuthorizationMemo? = nil, then send: @escaping @Sendable (_ stored: Bool) -> Void
    ) {
        // Kept as `clientCertificate`, summarised; most connections present none, and then the TLS facts are kept
        // as they are (the certificate is looked at once, not copied and compared).
        let tls: TLSInfo?
        let clientCertificate: ClientCertificateSummary?
        if let certificate = request.connection.tls?.clientCertificate {
            var stripped = request.connection.tls
            stripped?.clientCertificate = nil
            tls = stripped
            clientCertificate = ClientCertificateSummary(certificate)
        } else {
            tls = request.connection.tls
            clientCertificate = nil
        }
        // `draft.verdict` read in place: a local copy of the verdict retained and released all its findings.
        let record = DeliveryRecord(
            receivedAt: request.receivedAt, connectionID: request.connection.id,
            clientAddress: request.connection.remoteAddress, environment: draft.verdict.environment,
            tls: tls, method: request.method, path: request.path,
            deviceToken: draft.verdict.deviceToken, headers: Self.recordedHeaders(request, redactions: redactions),
            providerToken: Self.providerTokenSummary(draft.verdict.findings),
            payload: request.body, status: draft.verdict.status, reason: draft.verdict.wireReason,
            apnsID: draft.apnsID, apnsUniqueID: draft.uniqueID, warnings: draft.verdict.warnings,
            explanation: draft.verdict.explanation, ruleID: draft.verdict.ruleID,
            strict: draft.verdict.isStrictMockAnswer, pushType: draft.verdict.pushType?.rawValue,
            topic: draft.verdict.topic,
            liveActivity: draft.liveActivity.map { LiveActivityOutcome(code: $0.code, explanation: $0.explanation) },
            latencyMicroseconds: latencyMicroseconds, injected: draft.injected,
            clientCertificate: clientCertificate)
        append(record, then: send)
    }

    /// Stores a finished record and counts it; `send(true)` once durable, `send(false)` when the store failed.
    func append(_ record: DeliveryRecord, then send: @escaping @Sendable (_ stored: Bool) -> Void) {
        if let inMemory {
            // Kept before `appendNow` returns: counted and answered here, without a completion closure.
            let result: Result<Int64, DeliveryStoreError> = inMemory.appendNow(record).map { .success($0) } ?? .failure(.closed)
            return Self.finish(
                result, status: record.status, reason: record.reason, latency: record.latencyMicroseconds,
                health: health, metrics: metrics, send: send)
        }
        let metrics = metrics
        let health = health
        // The completion keeps the three figures it counts, not a copy of the whole record.
        let (status, reason, latency) = (record.status, record.reason, record.latencyMicroseconds)
        store.append(record) { result in
            Self.finish(result, status: status, reason: reason, latency: latency, health: health, metrics: metrics, send: send)
        }
    }

    /// Counts the stored (or failed) record and lets the caller answer: `send(true)` once durable, `send(false)`
    /// when the store failed.
    private static func finish(
        _ result: Result<Int64, DeliveryStoreError>, status: Int, reason: String?, latency: Int64, health: StoreHealth,
        metrics: Metrics, send: @Sendable (_ stored: Bool) -> Void
    ) {
        switch result {
        case .success:
            health.recordSuccess()
            metrics.recordRequest(status: status, reason: reason, latencyMicroseconds: latency)
            send(true)
        case .failure(let error):
            health.recordFailure(error)
            metrics.recordRequest(status: 503, reason: Reason.serviceUnavailable.rawValue, latencyMicroseconds: latency)
            send(false)
        }
    }

    /// Pseudo-headers first, then every header in arrival order; the `authorization` value is never stored
    /// whole: it is reduced to its scheme and a fingerprint (the decoded JWT is kept in `providerToken`).
    static func recordedHeaders(_ request: HTTPRequest, redactions: RedactedAuthorizationMemo? = nil) -> [HeaderField] {
        // One allocation of the final size: growing from the two pseudo-headers reallocated three or four times.
        var headers: [HeaderField] = []
        headers.reserveCapacity(request.headers.count + 4)
        headers.append(HeaderField(":method", request.method))
        headers.append(HeaderField(":path", request.path))
        if let scheme = request.scheme { headers.append(HeaderField(":scheme", scheme)) }
        if let authority = request.authority { headers.append(HeaderField(":authority", authority)) }
        for header in request.headers {
            if header.name == "authorization" {
                let redacted = redactions?.redaction(of: header.value) ?? redactedAuthorization(header.value)
                headers.append(HeaderField("authorization", redacted))
            } else {
                headers.append(header)
            }
        }
        return headers
    }

    static func redactedAuthorization(_ value: String) -> String {
        // The usual "bearer <token>": one scan, one string built; anything else takes the general path below.
        if let space = value.utf8.firstIndex(of: UInt8(ascii: " ")), space != value.utf8.startIndex {
            let tokenStart = value.utf8.index(after: space)
            if tokenStart != value.utf8.endIndex, value.utf8[tokenStart] != UInt8(ascii: " ") {
                let fingerprint = VerifiedToken.fingerprint(of: value[tokenStart...])
                var redacted = String()
                redacted.reserveCapacity(value.utf8.distance(from: value.utf8.startIndex, to: space) + 40)
                redacted += value[..<space]
                redacted += " <redacted fingerprint:"
                redacted += fingerprint
                redacted += ">"
                return redacted
            }
        }
        let parts = value.split(separator: " ", maxSplits: 1)
        let scheme = parts.first.map(String.init) ?? ""
        guard parts.count == 2 else { return value.isEmpty ? "" : "\(scheme) <redacted>" }
        return "\(scheme) <redacted fingerprint:\(VerifiedToken.fingerprint(of: parts[1]))>"
    }

    /// The provider token as the record keeps it: the sender's verified token, or for a refused token what
    /// authentication read of it (its decoded header and claims are not secret and show what was wrong with it).
    static func providerTokenSummary(_ findings: PushFindings) -> ProviderTokenSummary? {
        if let sender = findings.sender {
            return ProviderTokenSummary(header: sender.headerJSON, claims: sender.claimsJSON, fingerprint: sender.tokenFingerprint)
        }
        return findings.presentedToken.map {
            ProviderTokenSummary(header: $0.headerJSON, claims: $0.claimsJSON, fingerprint: $0.fingerprint)
        }
    }

    static func fingerprint(_ token: String) -> String {
        VerifiedToken.fingerprint(of: Substring(token))
    }
}

/// One connection's last `authorization` value and its redaction: a sender repeats one provider token for many
/// pushes (A-TOKEN), so most records reuse the string instead of hashing the token and building it again.
/// Not thread-safe: used on its connection's thread only.
final class RedactedAuthorizationMemo {
    private var value: String?
    private var redacted = ""

    func redaction(of value: String) -> String {
        if value == self.value { return redacted }
        redacted = DeliveryRecorder.redactedAuthorization(value)
        self.value = value
        return redacted
    }
}
