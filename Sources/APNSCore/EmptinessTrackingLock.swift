import Synchronization

/// A collection guarded by a lock whose emptiness is known without taking it: its count is stored in an atomic at
/// the end of every locked access. For registries that are empty in the usual case (declared tokens, fault specs),
/// so that a push asks `isEmpty` and takes no lock the event-loop threads would contend for.
public final class EmptinessTrackingLock<Value: Collection & Sendable>: Sendable {
    private let value: Locked<Value>
    @usableFromInline let count: Atomic<Int>

    public init(_ value: Value) {
        self.value = Locked(value)
        count = Atomic(value.count)
    }

    /// Whether the collection was empty after the last locked access.
    @inlinable public var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

    /// Runs `body` with exclusive access to the collection, then notes its count.
    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        value.withLock { value in
            defer { count.store(value.count, ordering: .releasing) }
            return body(&value)
        }
    }
}
