import Foundation
import Synchronization

/// A small number per thread, handed out in the order threads first ask (1, 2, 3, ...), so that the first few
/// threads of a process (the event loops) map to distinct slots of a per-thread table (the metrics' request
/// counters): each thread then touches its own entry, not one every event-loop thread writes per push (a lock and a
/// cache line bouncing between cores).
public enum ThreadSlot {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
    private static let lastSlot = Atomic<Int>(0)

    /// The calling thread's slot (1 or more).
    public static var current: Int {
        if let stored = pthread_getspecific(key) { return Int(bitPattern: stored) }
        let slot = lastSlot.add(1, ordering: .relaxed).newValue
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: slot))
        return slot
    }
}
