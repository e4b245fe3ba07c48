import APNSCore
import Foundation

/// The pushes of one run, shared by the connections that send them: which push goes next, which wait for a retry,
/// which tokens are gone. Thread-safe.
///
/// Ordering: Live Activity pushes to one token are sent one at a time, in order (an update overtaking another
/// would carry an older `timestamp` and be ignored by the device, A-LA); everything else may be in flight at once.
final class PushWorkQueue: @unchecked Sendable {
    enum Take {
        case push(index: Int, attempt: Int)
        case wait(Double)
        case done
    }

    private struct Retry {
        var index: Int
        var attempt: Int
        var readyAt: ContinuousClock.Instant
    }

    private let lock = NSLock()
    let count: Int
    private let job: @Sendable (Int) -> BuiltPush
    private let keepOrder: Bool
    private var nextIndex = 0
    private var retries: [Retry] = []
    private var busyTokens: [String: Int] = [:]
    private var goneTokens: [String: String] = [:]
    private var finishedCount = 0
    private var notSent = 0

    init(count: Int, keepOrder: Bool, job: @escaping @Sendable (Int) -> BuiltPush) {
        self.count = count
        self.keepOrder = keepOrder
        self.job = job
    }

    func push(at index: Int) -> BuiltPush { job(index) }

    var isFinished: Bool { lock.withLock { finishedCount + notSent >= count } }
    var finished: Int { lock.withLock { finishedCount } }

    /// The next push to send now, or how long until one is due, or `.done` when nothing is left to send.
    /// `skip` receives pushes not sent because their token is gone.
    func take(skip: (Int, String) -> Void) -> Take {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        if let position = retries.indices.filter({ retries[$0].readyAt <= now }).min(by: { retries[$0].readyAt < retries[$1].readyAt }) {
            let retry = retries.remove(at: position)
            return .push(index: retry.index, attempt: retry.attempt)
        }
        while nextIndex < count {
            let push = job(nextIndex)
            if let why = goneTokens[push.deviceToken.lowercased()] {
                skip(nextIndex, why)
                finishedCount += 1
                nextIndex += 1
                continue
            }
            if keepOrder, push.pushType == .liveactivity {
                let token = push.deviceToken.lowercased()
                if busyTokens[token] != nil { return .wait(0.05) }
                busyTokens[token] = nextIndex
            }
            nextIndex += 1
            return .push(index: nextIndex - 1, attempt: 1)
        }
        if let soonest = retries.map(\.readyAt).min() {
            return .wait(max(0.001, (soonest - now).inSeconds))
        }
        return .done
    }

    /// Sends `index` again after `delay` seconds (attempt `attempt`).
    func retry(_ index: Int, attempt: Int, after delay: Double) {
        lock.withLock {
            retries.append(Retry(index: index, attempt: attempt, readyAt: .now + .milliseconds(Int(delay * 1000))))
        }
    }

    /// `index` has its final outcome; a 410 marks its token gone for the rest of the run.
    func finish(_ index: Int, deviceToken: String, goneReason: String?) {
        lock.withLock {
            finishedCount += 1
            let token = deviceToken.lowercased()
            if busyTokens[token] == index { busyTokens[token] = nil }
            if let goneReason { goneTokens[token] = goneReason }
        }
    }

    /// No connection can be made: whatever was not sent yet is given up. Returns how many pushes that was.
    func abandonUnsent() -> Int {
        lock.withLock {
            let dropped = (count - nextIndex) + retries.count
            nextIndex = count
            retries.removeAll()
            notSent += dropped
            return dropped
        }
    }
}
