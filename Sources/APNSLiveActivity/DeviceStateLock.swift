import Foundation

/// The simulated device's state and the lock that guards it. `Locked<LiveActivityDeviceState>` did the same, but
/// from another module and generic over its value, so every push called its unspecialised `withLock` (the closure
/// passed as a context, the result moved through a generic buffer) and its access to the class's stored `var` was
/// checked for exclusivity at run time (`swift_beginAccess`). Here the value lives at a fixed address, so `withLock`
/// inlines at its call sites and lends the value with no check. Built on `NSLock`, as `Locked` is, so
/// ThreadSanitizer understands it.
final class DeviceStateLock: @unchecked Sendable {
    private let lock = NSLock()
    /// Allocated once with the device; read and written only with `lock` held.
    private let value: UnsafeMutablePointer<LiveActivityDeviceState>

    init(_ state: LiveActivityDeviceState) {
        value = .allocate(capacity: 1)
        value.initialize(to: state)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    @inline(__always)
    func withLock<Result, Failure: Error>(
        _ body: (inout LiveActivityDeviceState) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value.pointee)
    }
}
