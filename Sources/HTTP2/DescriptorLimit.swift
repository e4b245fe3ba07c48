import CNative
import Foundation

/// Every client connection holds a file descriptor; the default soft limit (often 1,024) is far below what the
/// kernel allows the process (the hard limit). At start-up the soft limit is raised to the hard limit, so the
/// server reaches the descriptor limit only under a real flood (and then pauses accepting: `AcceptPause`).
enum DescriptorLimit {
    /// Raises the soft RLIMIT_NOFILE to the hard limit; returns the soft limit now in force.
    @discardableResult
    static func raiseToHardLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return UInt64(raised.rlim_cur) }
        }
        return UInt64(limit.rlim_cur)
    }
}
