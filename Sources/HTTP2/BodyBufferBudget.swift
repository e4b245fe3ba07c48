import Synchronization

/// Request-body bytes buffered by every connection of one server, against `TransportSettings.totalBodyBufferLimit`.
/// Each session also keeps its own count against `connectionBodyBufferLimit`. Bytes are reserved as DATA arrives
/// and released when the request is handed to the application or its stream ends. Without these caps, 12
/// authenticated connections holding 1,000 streams of 64 KiB each took 1 GB (attack round).
final class BodyBufferBudget: Sendable {
    let limit: Int
    private let buffered = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `count` bytes from the budget; false (and nothing taken) when that would pass the limit.
    func reserve(_ count: Int) -> Bool {
        var current = buffered.load(ordering: .relaxed)
        while true {
            guard current + count <= limit else { return false }
            let (exchanged, original) = buffered.compareExchange(
                expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    func release(_ count: Int) {
        guard count > 0 else { return }
        buffered.wrappingSubtract(count, ordering: .relaxed)
    }

    var bufferedBytes: Int { buffered.load(ordering: .relaxed) }
}
