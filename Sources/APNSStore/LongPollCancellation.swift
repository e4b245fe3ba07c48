import APNSCore
import Foundation
import HTTPContract

/// Ends one long poll before its timeout: after `cancel()`, the `waitForNext(_:after:timeout:cancellation:)` it
/// was given stops waiting and returns what it has (a record that is already there, else nil). The admin API's
/// stop uses it to answer its parked long polls instead of leaving them blocked for up to a minute.
public final class LongPollCancellation: Sendable {
    private struct State {
        var cancelled = false
        /// Wakes the wait the long poll is in now (nil when it is not waiting).
        var wake: (() -> Void)?
    }

    private let state = Locked(State())

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    public func cancel() {
        let wake = state.withLock { state in
            state.cancelled = true
            return state.wake
        }
        wake?()
    }

    /// Runs `body` with `wake` registered as the way to interrupt it. `wake` must take the lock the wait checks
    /// `isCancelled` under, so that a cancel between that check and the wait is not lost.
    func whileWaiting<Result, Failure: Error>(
        wake: @escaping () -> Void, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        state.withLock { $0.wake = wake }
        defer { state.withLock { $0.wake = nil } }
        return try body()
    }
}

extension DeliveryStore {
    /// `waitForNext`, ended early by `cancellation`. A store whose long polls wait on a `DurableSignal` (both of
    /// ours) stops waiting at once; any other store is waited for as by `waitForNext` (up to `timeout`).
    public func waitForNext(
        _ filter: DeliveryFilter, after afterID: Int64, timeout: Duration, cancellation: LongPollCancellation
    ) throws(DeliveryStoreError) -> DeliveryRecord? {
        guard let signalled = self as? any SignalledDeliveryStore else {
            return try waitForNext(filter, after: afterID, timeout: timeout)
        }
        return try signalled.signal.waitForNext(
            filter, after: afterID, timeout: timeout, cancellation: cancellation, in: signalled)
    }
}
