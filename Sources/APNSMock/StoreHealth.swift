import APNSCore
import Foundation
import Synchronization

/// Whether the delivery store is taking records. While the last append failed, `/api/health` says `degraded` with
/// the reason, and pushes are answered `503 ServiceUnavailable` instead of 200 (`StoreFailureAnswer`): a 200 is sent
/// only for a stored record. The next successful append clears it.
final class StoreHealth: Sendable {
    private let failure = Locked<String?>(nil)
    /// Whether `failure` holds a reason; set and cleared with its lock held. A success reads it alone, without the
    /// lock (every stored push reports a success, and the store almost always works).
    private let degraded = Atomic<Bool>(false)
    private let log: RateLimitedLog

    init(log: RateLimitedLog = .standardError) {
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

    /// Nil while the store works.
    var degradedReason: String? { failure.withLock { $0 } }
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
