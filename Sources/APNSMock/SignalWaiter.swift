import Foundation

/// Blocks SIGINT and SIGTERM in every thread started afterwards, so that `wait()` on the main thread is the one
/// place that receives them (graceful shutdown).
package enum SignalWaiter {
    /// Call before starting any thread.
    package static func blockShutdownSignals() {
        var set = shutdownSignals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits for SIGINT or SIGTERM and returns its number.
    package static func wait() -> Int32 {
        var set = shutdownSignals()
        var received: Int32 = 0
        sigwait(&set, &received)
        return received
    }

    private static func shutdownSignals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
