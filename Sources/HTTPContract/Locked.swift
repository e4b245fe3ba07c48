import Foundation

/// A value guarded by a lock, for state shared across threads (registries, caches, the simulated device, the
/// transport's response inbox). Same shape as `Synchronization.Mutex`, but built on `NSLock` (a pthread mutex),
/// which ThreadSanitizer understands: on this toolchain TSan reports every contended `Mutex.withLock` as a race,
/// because it cannot see the futex wait in the precompiled Synchronization library (reproduced with a 4-thread
/// counter that ends exactly right), so `make test-tsan` would be noise.
/// `withLock` is inlinable, so other modules get it specialised for their value and body (not a generic call
/// through metadata per push), and the value is touched only with the lock held, so its dynamic exclusivity check
/// is left out.
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline @exclusivity(unchecked) var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
