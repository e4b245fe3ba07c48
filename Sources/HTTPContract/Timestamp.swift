import Foundation

/// Wall-clock time as nanoseconds since the Unix epoch. A plain value so that every rule takes time as input and
/// tests choose it (the one-hour and twenty-minute token rules, Live Activity timestamps).
public struct Timestamp: Sendable, Hashable, Comparable, Codable {
    public var nanosecondsSinceEpoch: Int64

    public init(nanosecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    /// Saturates instead of trapping: times come from untrusted payloads (a millisecond `aps.timestamp` read as
    /// seconds is far beyond what nanoseconds in an Int64 can hold), and bad input must never stop the server.
    public init(secondsSinceEpoch: Double) {
        self.nanosecondsSinceEpoch = Self.saturatingNanoseconds(secondsSinceEpoch)
    }

    static func saturatingNanoseconds(_ seconds: Double) -> Int64 {
        let nanoseconds = seconds * 1_000_000_000
        if nanoseconds.isNaN { return 0 }
        if nanoseconds >= 9.2e18 { return .max }
        if nanoseconds <= -9.2e18 { return .min }
        return Int64(nanoseconds)
    }

    public static let zero = Timestamp(nanosecondsSinceEpoch: 0)

    public var secondsSinceEpoch: Double { Double(nanosecondsSinceEpoch) / 1_000_000_000 }
    public var millisecondsSinceEpoch: Int64 { nanosecondsSinceEpoch / 1_000_000 }

    public func adding(seconds: Double) -> Timestamp {
        let (sum, overflow) = nanosecondsSinceEpoch.addingReportingOverflow(Self.saturatingNanoseconds(seconds))
        if overflow { return Timestamp(nanosecondsSinceEpoch: seconds > 0 ? .max : .min) }
        return Timestamp(nanosecondsSinceEpoch: sum)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }
}

/// The source of "now". Production uses `SystemClock`; tests use `TestClock` and move it by hand.
public protocol WallClock: Sendable {
    func now() -> Timestamp
}

/// The machine's real-time clock.
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Timestamp {
        Timestamp(secondsSinceEpoch: Date().timeIntervalSince1970)
    }
}

/// A clock that stands still until a test moves it.
public final class TestClock: WallClock {
    private let current: Locked<Timestamp>

    public init(_ start: Timestamp = Timestamp(secondsSinceEpoch: 1_767_225_600)) {
        current = Locked(start)
    }

    public func now() -> Timestamp { current.withLock { $0 } }

    public func advance(seconds: Double) {
        current.withLock { $0 = $0.adding(seconds: seconds) }
    }

    public func set(_ time: Timestamp) {
        current.withLock { $0 = time }
    }
}
