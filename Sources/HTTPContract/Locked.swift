import Foundation

/// A value guarded by a lock, for state shared across threads (registries, caches, the simulated device, the
/// transport's response inbox). Same shape as `Synchronization.Mutex`, but built on `NSLock` (a pthread mutex),
/// which ThreadSanitizer understands: on this toolchain TSan reports every contended `Mutex.withLock` as a race,
/// because it cannot see the futex wait in the precompiled Synchronization library (reproduced with a 4-thread
/// counter that ends exactly right), so `make test-tsan` would be noise.
/// `withLock` is inlinable, so other modules get it specialised for their value and body (not a generic call
/// through metadata per push). The value is a stored property visible to those modules, so each `withLock` pays
/// Swift's run-time exclusivity check of it (a `swift_beginAccess`, ~70 instructions).
///
/// A lock found held is tried again a bounded number of times before the thread sleeps on it (`acquireContended`):
/// the sections it guards are short (the simulated device's is ~3,500 instructions per push), and a plain pthread
/// mutex sleeps at once on contention, which costs both event-loop threads a futex wait and wake and two context
/// switches (4.7 % of the server's samples under load, most of them on the device's lock). `NSLock.try()` is
/// `pthread_mutex_trylock`, which TSan understands as well as `lock()`.
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        if !lock.try() { acquireContended() }
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Attempts of `acquireContended` before it sleeps: each is a failed compare-and-swap (~50-100 ns across
    /// cores), so a few microseconds in all, about what sleeping and being woken cost.
    @usableFromInline static var contendedAttempts: Int { 100 }

    /// Takes the lock, found held: tries it again up to `contendedAttempts` times, then waits for it asleep. Out of
    /// line, so `withLock` inlines only the first attempt.
    @usableFromInline @inline(never) func acquireContended() {
        for _ in 0..<Self.contendedAttempts where lock.try() { return }
        lock.lock()
    }
}
