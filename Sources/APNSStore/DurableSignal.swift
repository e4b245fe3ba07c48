import APNSCore
import Foundation
import Synchronization

/// The highest durable id, and a condition variable that wakes long polls when it moves. Shared by both stores so
/// that `waitForNext` behaves the same in each.
///
/// The id is an atomic, and `advance` (every push of the in-memory store, from both event-loop threads) takes the
/// lock only when a long poll may be waiting: a long poll counts itself in `waiters` before it reads the id, and
/// `advance` reads `waiters` after it writes the id (both sequentially consistent), so either the long poll sees
/// the new id and does not wait, or `advance` sees it and broadcasts under the lock, which the long poll holds
/// until it waits.
final class DurableSignal: @unchecked Sendable {
    // `closed`, `parkedNow` and `parkedEver` are only touched with `condition` locked.
    private let condition = NSCondition()
    private let durableID: Atomic<Int64>
    /// Long polls inside `waitForChange` (counted with `condition` locked, read by `advance` without it).
    private let waiters = Atomic<Int>(0)
    private var closed = false
    /// Long polls blocked in `waitForChange` now, and how many times one blocked since the store opened.
    private var parkedNow = 0
    private var parkedEver = 0

    init(durableID: Int64) {
        self.durableID = Atomic(durableID)
    }

    var current: Int64 { durableID.load(ordering: .sequentiallyConsistent) }

    /// Records up to `id` are durable (called by the writer after COMMIT).
    func advance(to id: Int64) {
        var known = durableID.load(ordering: .relaxed)
        while id > known {
            let (exchanged, original) = durableID.compareExchange(
                expected: known, desired: id, ordering: .sequentiallyConsistent)
            if exchanged { break }
            known = original
        }
        guard waiters.load(ordering: .sequentiallyConsistent) > 0 else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until the durable id passes `seen`, the store closes, `cancellation` is cancelled, or `deadline`
    /// passes. True when it moved.
    func waitForChange(from seen: Int64, until deadline: Date, cancellation: LongPollCancellation? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        waiters.add(1, ordering: .sequentiallyConsistent)
        defer { waiters.subtract(1, ordering: .sequentiallyConsistent) }
        while current <= seen && !closed && !(cancellation?.isCancelled ?? false) {
            parkedNow += 1
            parkedEver += 1
            let woken = condition.wait(until: deadline)
            parkedNow -= 1
            if !woken { return current > seen }
        }
        return current > seen
    }

    /// The long-poll loop both stores use: query for the next match; if there is none, remember that nothing up to
    /// the durable id seen before the query matched (so the next query scans only newer rows) and wait for a commit.
    /// With a `cancellation`, its `cancel()` ends the wait at once (`LongPollCancellation`).
    func waitForNext(
        after afterID: Int64, timeout: Duration, cancellation: LongPollCancellation? = nil,
        next: (_ afterID: Int64) throws(DeliveryStoreError) -> DeliveryRecord?
    ) throws(DeliveryStoreError) -> DeliveryRecord? {
        let clamped = min(max(timeout, .zero), maxWait)
        let deadline = Date().addingTimeInterval(clamped.inSeconds)
        var scanFrom = afterID
        func wait() throws(DeliveryStoreError) -> DeliveryRecord? {
            while true {
                let seen = current
                if let record = try next(scanFrom) { return record }
                scanFrom = max(scanFrom, seen)
                guard waitForChange(from: seen, until: deadline, cancellation: cancellation) else { return nil }
            }
        }
        guard let cancellation else { return try wait() }
        return try cancellation.whileWaiting(wake: { [condition] in
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }, wait)
    }

    /// `waitForNext` for a store whose commits advance this signal: the next durable record matching `filter`
    /// (ended early by `cancellation`, if given).
    func waitForNext(
        _ filter: DeliveryFilter, after afterID: Int64, timeout: Duration,
        cancellation: LongPollCancellation? = nil, in store: some DeliveryStore
    ) throws(DeliveryStoreError) -> DeliveryRecord? {
        try waitForNext(after: afterID, timeout: timeout, cancellation: cancellation) { scanFrom throws(DeliveryStoreError) in
            try store.deliveries(DeliveryQuery(filter: filter, afterID: scanFrom, limit: 1, order: .oldestFirst)).first
        }
    }
}

// Test hooks, so tests wait on the event (a long poll blocked waiting for a commit) instead of sleeping.
extension DurableSignal {
    /// How many times a long poll has blocked waiting for a commit since the store opened.
    var parkings: Int {
        condition.lock()
        defer { condition.unlock() }
        return parkedEver
    }

    /// Returns once a long poll is blocked waiting for a commit (true), or after `limit` checks a millisecond
    /// apart (false).
    func waitUntilParked(limit: Int = 20_000) -> Bool {
        waitUntil(limit: limit) { parkedNow, _ in parkedNow > 0 }
    }

    /// Returns once long polls have blocked more than `parkings` times in all (true: one more has parked, even
    /// while another was parked already), or after `limit` checks a millisecond apart (false).
    func waitUntilParkings(exceed parkings: Int, limit: Int = 20_000) -> Bool {
        waitUntil(limit: limit) { _, parkedEver in parkedEver > parkings }
    }

    private func waitUntil(limit: Int, _ holds: (_ parkedNow: Int, _ parkedEver: Int) -> Bool) -> Bool {
        for _ in 0..<limit {
            condition.lock()
            let held = holds(parkedNow, parkedEver)
            condition.unlock()
            if held { return true }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return false
    }
}

/// A store whose commits advance a `DurableSignal` (both stores): its `latestID` and `waitForNext` are the
/// signal's, written once here. Tests reach the signal through it.
protocol SignalledDeliveryStore: DeliveryStore {
    var signal: DurableSignal { get }
}

extension SignalledDeliveryStore {
    public var latestID: Int64 { signal.current }

    public func waitForNext(_ filter: DeliveryFilter, after afterID: Int64, timeout: Duration)
        throws(DeliveryStoreError) -> DeliveryRecord?
    {
        try signal.waitForNext(filter, after: afterID, timeout: timeout, in: self)
    }
}

extension InMemoryDeliveryStore: SignalledDeliveryStore {}
extension SQLiteDeliveryStore: SignalledDeliveryStore {}

extension DeliveryStore {
    /// Test hook: the store's long-poll signal.
    var longPollSignal: DurableSignal { (self as! any SignalledDeliveryStore).signal }
}

