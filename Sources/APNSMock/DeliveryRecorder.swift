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

    init(store: any DeliveryStore, metrics: Metrics, health: StoreHealth = StoreHealth()) {
        self.store = store
        self.metrics = metrics
        self.health = health
    }

    /// `redactions`: the connection's memo of its last redacted `authorization` value (nil: redact afresh).
    func record(
        request: consuming HTTPRequest, draft: DeliveryDraft, latencyMicroseconds: Int64,
        redactions: AuthorizationRedactionMemo? = nil, then send: @escaping @Sendable (_ stored: Bool) -> Void
    ) {
        append(
            Self.record(request: request, draft: draft, latencyMicroseconds: latencyMicroseconds, redactions: redactions),
            then: send)
    }

    /// The push's delivery record: the request and what the pipeline answered, from the verdict's findings lent
    /// once (each of the verdict's accessors copied the whole verdict to reach into its case).
    static func record(
        request: HTTPRequest, draft: DeliveryDraft, latencyMicroseconds: Int64, redactions: AuthorizationRedactionMemo?
    ) -> DeliveryRecord {
        record(
            draft.verdict.findings, request: request, draft: draft, latencyMicroseconds: latencyMicroseconds,
            redactions: redactions)
    }

    private static func record(
        _ findings: PushFindings, request: HTTPRequest, draft: DeliveryDraft, latencyMicroseconds: Int64,
        redactions: AuthorizationRedactionMemo?
    ) -> DeliveryRecord {
        let facts = findings.facts  // once: each read copies the facts out of the findings' box (~250 instructions)
        return DeliveryRecord(
            request: request, redactions: redactions, environment: findings.environment,
            deviceToken: facts.deviceToken, providerToken: Self.providerTokenSummary(findings),
            status: draft.verdict.status, reason: draft.verdict.wireReason, apnsID: draft.apnsID,
            apnsUniqueID: draft.uniqueID, warnings: findings.warnings, explanation: findings.explanation,
            ruleID: findings.ruleID, strict: draft.verdict.isStrictMockAnswer,
            pushType: facts.pushType?.rawValue, topic: facts.topic,
            liveActivity: draft.liveActivity.map { RecordedLiveActivityOutcome(code: $0.code, explanation: $0.explanation) },
            latencyMicroseconds: latencyMicroseconds, injected: draft.injected)
    }

    /// Stores a finished record and counts it; `send(true)` once durable, `send(false)` when the store failed.
    func append(_ record: DeliveryRecord, then send: @escaping @Sendable (_ stored: Bool) -> Void) {
        let metrics = metrics
        let health = health
        // The completion keeps the three figures it counts, not a copy of the whole record.
        let (status, reason, latency) = (record.status, record.reason, record.latencyMicroseconds)
        // The in-memory store answers at once: no completion closure is made for it.
        if let result = store.appendAtOnce(record) {
            return Self.finish(
                result, status: status, reason: reason, latency: latency, health: health, metrics: metrics, send: send)
        }
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

    /// The provider token as the record keeps it: the sender's verified token, or for a refused token what
    /// authentication read of it (its decoded header and claims are not secret and show what was wrong with it).
    static func providerTokenSummary(_ findings: PushFindings) -> ProviderTokenSummary? {
        providerTokenSummary(sender: findings.sender, presented: findings.presentedToken)
    }

    static func providerTokenSummary(sender: AuthenticatedSender?, presented: PresentedToken?) -> ProviderTokenSummary? {
        if let sender {
            return ProviderTokenSummary(header: sender.headerJSON, claims: sender.claimsJSON, fingerprint: sender.tokenFingerprint)
        }
        return presented.map { ProviderTokenSummary(header: $0.headerJSON, claims: $0.claimsJSON, fingerprint: $0.fingerprint) }
    }
}
