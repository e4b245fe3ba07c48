import APNSCore
import Foundation
import HTTPContract
import Synchronization

/// The intern pools of one in-memory store, shared by its packers (one per appending thread, `DeliveryPackers`) so
/// that records are packed outside the store's lock. A packer reaches in here only for a value it has not pooled
/// at that place of a record before; a record that repeats the previous one's texts packs without any lock.
///
/// `reset` starts new pools and counts a generation: numbers handed out in one generation mean nothing in the next,
/// so a record packed against an older generation is kept whole by the store (the store compares generations under
/// its own lock, and resets under it).
final class SharedDeliveryPools: Sendable {
    private let state: Locked<(pools: DeliveryInternPools, generation: Int)>
    private let currentGeneration = Atomic<Int>(0)

    init(_ pools: DeliveryInternPools = DeliveryInternPools()) {
        state = Locked((pools, 0))
    }

    /// The generation of the current pools (changes on `reset`).
    var generation: Int { currentGeneration.load(ordering: .acquiring) }

    /// A copy of the current pools (shared storage until the next value is pooled), for decoding.
    func snapshot() -> DeliveryInternPools {
        state.withLock { $0.pools }
    }

    /// Runs `body` on the pools of generation `generation`; nil when they have been reset since.
    func withPools<Result>(
        ofGeneration generation: Int, _ body: (inout DeliveryInternPools) -> Result
    ) -> Result? {
        state.withLock { state in
            guard state.generation == generation else { return nil }
            return body(&state.pools)
        }
    }

    /// Starts new, empty pools (keeping the old ones' capacities).
    func reset() {
        state.withLock { state in
            let old = state.pools
            state.pools = DeliveryInternPools(
                strings: InternPool(capacity: old.strings.capacity), tls: InternPool(capacity: old.tls.capacity),
                faults: InternPool(capacity: old.faults.capacity),
                certificates: InternPool(capacity: old.certificates.capacity),
                payloads: InternPool(capacity: old.payloads.capacity))
            state.generation += 1
            currentGeneration.store(state.generation, ordering: .releasing)
        }
    }
}

/// One `DeliveryPacker` per appending thread (event-loop threads get one each: `ThreadSlot`), each under its own
/// lock, all over the same `SharedDeliveryPools` (or none: self-contained packers).
struct DeliveryPackers: Sendable {
    private let packers: [Locked<DeliveryPacker>]

    init(pools: SharedDeliveryPools, count: Int = 8) {
        self.init(count: count) { DeliveryPacker(shared: pools) }
    }

    /// Self-contained packers (`DeliveryPacker.selfContained()`: the SQLite store's).
    static func selfContained(count: Int = 8) -> DeliveryPackers {
        DeliveryPackers(count: count) { .selfContained() }
    }

    private init(count: Int, make: () -> DeliveryPacker) {
        packers = (0..<count).map { _ in Locked(make()) }
    }

    /// Runs `body` with the calling thread's packer.
    func withPacker<Result>(_ body: (inout DeliveryPacker) -> Result) -> Result {
        packers[ThreadSlot.current % packers.count].withLock(body)
    }
}
