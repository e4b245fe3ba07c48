import APNSCore
import Foundation

/// The pushes of one run, shared by the connections that send them: which push goes next, which wait for a retry,
/// which tokens are gone. Thread-safe.
///
/// Ordering: Live Activity pushes to one token are sent one at a time, in order (an update overtaking another
/// would carry an older `timestamp` and be ignored by the device, A-LA); everything else may be in flight at once.
///
/// Shares: each connection thread (a lane) takes at most its share of the first attempts, `count / lanes` (one more
/// for the first `count % lanes` lanes), in push order from one cursor. So `--connections K` spreads the pushes
/// exactly, however the threads are scheduled: a thread whose handshake is slower, or that is descheduled after
/// connecting, still finds its share waiting. Retries go to whichever lane asks first. A lane whose thread gives
/// up (it cannot connect) hands what is left of its share to the others (`release(lane:)`).
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
    /// First attempts each lane may still take, and those released by lanes that gave up (any lane takes these).
    private var shares: [Int]
    private var released = 0

    init(count: Int, keepOrder: Bool, lanes: Int = 1, job: @escaping @Sendable (Int) -> BuiltPush) {
        self.count = count
        self.keepOrder = keepOrder
        self.job = job
        let lanes = max(1, lanes)
        shares = (0..<lanes).map { count / lanes + ($0 < count % lanes ? 1 : 0) }
    }

    func push(at index: Int) -> BuiltPush { job(index) }

    var isFinished: Bool { lock.withLock { finishedCount + notSent >= count } }
    var finished: Int { lock.withLock { finishedCount } }

    /// The next push for `lane` to send now, or how long until one is due, or `.done` when nothing is left to send.
    /// `skip` receives pushes not sent because their token is gone. A lane whose share is taken waits while other
    /// lanes still have pushes to take (one may give up and release its share).
    func take(lane: Int = 0, skip: (Int, String) -> Void) -> Take {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        if let position = retries.indices.filter({ retries[$0].readyAt <= now }).min(by: { retries[$0].readyAt < retries[$1].readyAt }) {
            let retry = retries.remove(at: position)
            return .push(index: retry.index, attempt: retry.attempt)
        }
        while nextIndex < count, shares[lane] > 0 || released > 0 {
            let push = job(nextIndex)
            if let why = goneTokens[push.deviceToken.lowercased()] {
                skip(nextIndex, why)
                takeShare(lane)
                finishedCount += 1
                nextIndex += 1
                continue
            }
            if keepOrder, push.pushType == .liveactivity {
                let token = push.deviceToken.lowercased()
                if busyTokens[token] != nil { return .wait(0.05) }
                busyTokens[token] = nextIndex
            }
            takeShare(lane)
            nextIndex += 1
            return .push(index: nextIndex - 1, attempt: 1)
        }
        // Fresh pushes left in other lanes' shares: look again soon, in case a lane gives up and releases its share.
        let othersHoldPushes = nextIndex < count
        if let soonest = retries.map(\.readyAt).min() {
            let wait = max(0.001, (soonest - now).inSeconds)
            return .wait(othersHoldPushes ? min(0.05, wait) : wait)
        }
        return othersHoldPushes ? .wait(0.05) : .done
    }

    private func takeShare(_ lane: Int) {
        if shares[lane] > 0 { shares[lane] -= 1 } else { released -= 1 }
    }

    /// `lane`'s thread gives up: the rest of its share goes to the other lanes.
    func release(lane: Int) {
        lock.withLock {
            released += shares[lane]
            shares[lane] = 0
        }
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
