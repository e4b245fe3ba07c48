import Foundation

/// Standard-error lines that may repeat fast (a failing store, a process out of file descriptors) are written at
/// most once per `interval` per key; the next line written for that key says how many were left out. A flood of
/// identical errors would otherwise cost more than the failure itself (an attack round measured 24 MB/s of one
/// repeated accept() error).
public final class RateLimitedLog: Sendable {
    public static let standardError = RateLimitedLog(interval: .seconds(5)) { line in
        FileHandle.standardError.write(Data(line.utf8))
    }

    private struct KeyState {
        var lastWritten: UInt64
        var suppressed: Int
    }

    private let intervalNanoseconds: UInt64
    private let write: @Sendable (String) -> Void
    private let state = Locked<[String: KeyState]>([:])

    public init(interval: Duration, write: @escaping @Sendable (String) -> Void) {
        let (seconds, attoseconds) = interval.components
        intervalNanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds / 1_000_000_000))
        self.write = write
    }

    /// Writes `message` (a newline is added) unless a line with this `key` was written less than `interval` ago.
    /// Returns whether it was written.
    @discardableResult
    public func log(key: String, _ message: @autoclosure () -> String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        let suppressed: Int? = state.withLock { states in
            if let previous = states[key], now &- previous.lastWritten < intervalNanoseconds {
                states[key]?.suppressed += 1
                return nil
            }
            let count = states[key]?.suppressed ?? 0
            states[key] = KeyState(lastWritten: now, suppressed: 0)
            return count
        }
        guard let suppressed else { return false }
        let note = suppressed > 0 ? " (\(suppressed) similar lines left out)" : ""
        write("apns-mock: \(message())\(note)\n")
        return true
    }
}
