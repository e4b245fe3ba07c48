import APNSCore
import APNSStore
import Foundation
import Synchronization

/// Whether the delivery store works. While the last append failed, pushes are answered `503 ServiceUnavailable`
/// instead of 200 (`StoreFailureAnswer`): a 200 is sent only for a stored record; the next successful append clears
/// it. `/api/health`, `/metrics` and the start-up line say `degraded` with the reasons while an append fails or the
/// store knows something is wrong with it (`DeliveryStore.problems`: a row it cannot decode, a read of a damaged
/// file, a failed check).
final class StoreHealth: Sendable {
    private let failure = Locked<String?>(nil)
    /// Whether `failure` holds a reason; set and cleared with its lock held. A success reads it alone, without the
    /// lock (every stored push reports a success, and the store almost always works).
    private let degraded = Atomic<Bool>(false)
    private let log: RateLimitedLog
    /// The store whose own problems count (nil: only appends do).
    private let store: (any DeliveryStore)?

    init(store: (any DeliveryStore)? = nil, log: RateLimitedLog = .standardError) {
        self.store = store
        self.log = log
    }

    func recordSuccess() {
        guard degraded.load(ordering: .acquiring) else { return }
        failure.withLock {
            $0 = nil
            degraded.store(false, ordering: .releasing)
        }
    }

    func recordFailure(_ error: any Error) {
        let reason = "the delivery store cannot record deliveries: \(error)"
        failure.withLock {
            $0 = reason
            degraded.store(true, ordering: .releasing)
        }
        log.log(key: "store-append", "\(reason); pushes are answered 503 ServiceUnavailable until it recovers")
    }

    /// Why the store is degraded, one sentence each; empty while it works.
    var degradedReasons: [String] {
        (failure.withLock { $0 }.map { [$0] } ?? []) + (store?.problems.reasons ?? [])
    }

    /// Nil while the store works.
    var degradedReason: String? {
        let reasons = degradedReasons
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    /// `/metrics` lines: whether the store is degraded, and how many stored rows could not be decoded.
    var prometheusText: String {
        """
        # HELP apns_mock_store_degraded 1 while the delivery store cannot write, cannot read a row or failed its check.
        # TYPE apns_mock_store_degraded gauge
        apns_mock_store_degraded \(degradedReasons.isEmpty ? 0 : 1)
        # HELP apns_mock_store_undecodable_deliveries Stored deliveries that could not be decoded (left out of reads).
        # TYPE apns_mock_store_undecodable_deliveries gauge
        apns_mock_store_undecodable_deliveries \(store?.problems.undecodableCount ?? 0)

        """
    }
}

/// The answer to a push whose delivery record could not be stored. APNs answers `503 ServiceUnavailable` when it
/// cannot take a notification for now (A-RESP: "The service is unavailable"); senders retry it later, so nothing
/// the sender believes delivered is missing from the record. (500 `InternalServerError` would also be APNs'
/// vocabulary; 503 is chosen because common senders retry it: docs/reliability.md.)
enum StoreFailureAnswer {
    static func response(apnsID: String) -> HTTPResponse {
        HTTPResponse(
            status: Reason.serviceUnavailable.status,
            headers: [HeaderField("content-type", "application/json"), HeaderField("apns-id", apnsID)],
            body: Array(#"{"reason":"ServiceUnavailable"}"#.utf8))
    }
}
