import APNSCore
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

    /// `redactions`: the connection's memo of its last redacted `authorization` value (nil: redact afresh). The
    /// request is handed over into the record (`consuming`), not copied.
    func record(
        request: consuming HTTPRequest, draft: DeliveryDraft, latencyMicroseconds: Int64,
        redactions: RedactedAuthorizationMemo? = nil, then send: @escaping @Sendable (_ stored: Bool) -> Void
    ) {
        // The status and reason are read once, for the record and for the metrics.
        let status = draft.verdict.status
        let reason = draft.verdict.wireReason
        guard let inMemory else {
            // Encoded by the store straight from the request and the answer too (SQLite: its row), without the
            // `DeliveryRecord` between; the completion keeps the three figures it counts.
            let metrics = metrics
            let health = health
            store.append(
                Self.devicePush(
                    request: request, draft: draft, status: status, reason: reason,
                    latencyMicroseconds: latencyMicroseconds, redactions: redactions)
            ) { result in
                Self.finish(
                    result, status: status, reason: reason, latency: latencyMicroseconds, health: health,
                    metrics: metrics, send: send)
            }
            return
        }
        // Packed straight from the request and the answer, without building the `DeliveryRecord` first; the push
        // is handed over as made (a local copy of it was copied and destroyed again).
        let stored = inMemory.appendNow(
            Self.devicePush(
                request: request, draft: draft, status: status, reason: reason,
                latencyMicroseconds: latencyMicroseconds, redactions: redactions))
        let result: Result<Int64, DeliveryStoreError> = stored.map { .success($0) } ?? .failure(.closed)
        Self.finish(
            result, status: status, reason: reason, latency: latencyMicroseconds, health: health, metrics: metrics,
            send: send)
    }

    /// The push's record as the store takes it: the request and what the pipeline answered.
    static func devicePush(
        request: HTTPRequest, draft: DeliveryDraft, latencyMicroseconds: Int64, redactions: RedactedAuthorizationMemo?
    ) -> DevicePushRecord {
        devicePush(
            request: request, draft: draft, status: draft.verdict.status, reason: draft.verdict.wireReason,
            latencyMicroseconds: latencyMicroseconds, redactions: redactions)
    }

    /// `devicePush` with the verdict's status and wire reason already read.
    @inline(__always)
    private static func devicePush(
        request: consuming HTTPRequest, draft: DeliveryDraft, status: Int, reason: String?, latencyMicroseconds: Int64,
        redactions: RedactedAuthorizationMemo?
    ) -> DevicePushRecord {
        DevicePushRecord(request: request, answer: answer(
            draft.verdict.findings, draft: draft, status: status, reason: reason,
            latencyMicroseconds: latencyMicroseconds, redactions: redactions))
    }

    /// The answer's part of the record, from the verdict's findings lent once: each of the verdict's accessors
    /// copied the whole verdict (~350 bytes) to reach into its case, about ten times a push.
    @inline(never)
    private static func answer(
        _ findings: PushFindings, draft: DeliveryDraft, status: Int, reason: String?, latencyMicroseconds: Int64,
        redactions: RedactedAuthorizationMemo?
    ) -> DevicePushAnswer {
        .of(
            environment: findings.environment, deviceToken: findings.facts.deviceToken,
            providerToken: Self.providerTokenSummary(findings), status: status, reason: reason, apnsID: draft.apnsID,
            apnsUniqueID: draft.uniqueID, warnings: findings.warnings, explanation: findings.explanation,
            ruleID: findings.ruleID, strict: draft.verdict.isStrictMockAnswer,
            pushType: findings.facts.pushType?.rawValue, topic: findings.facts.topic,
            liveActivity: draft.liveActivity.map { LiveActivityOutcome(code: $0.code, explanation: $0.explanation) },
            latencyMicroseconds: latencyMicroseconds, injected: draft.injected, redactions: redactions,
            apnsIDBits: draft.apnsIDBits, apnsUniqueIDBits: draft.uniqueIDBits)
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
        RecordedHeaders.of(request, redactions: redactions)
    }

    static func redactedAuthorization(_ value: String) -> String {
        RecordedHeaders.redactedAuthorization(value)
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

/// One connection's last `authorization` value and its redaction (`AuthorizationRedactionMemo`).
typealias RedactedAuthorizationMemo = AuthorizationRedactionMemo
