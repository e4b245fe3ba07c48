import HTTPContract
import CNative
import Foundation
import Synchronization

/// Spreads accepted connections over the event-loop threads by their load.
///
/// Every thread has its own `SO_REUSEPORT` listener, and the kernel picks the listener by a hash of the client's
/// address and port, not by load: four connections from one client often land three on one thread and one on the
/// other, one core saturated while the other idles. So the thread that accepts a socket hands it to the thread with
/// the fewest connections (its own when none has fewer), which then starts the connection as if it had accepted it
/// itself. A connection still lives and dies on one thread.
///
/// The accepting thread applies `maxConnections` and counts the socket in `ConnectionFaults.openConnections` until
/// the receiving thread takes it over, so the limit stays exact across threads. A socket handed to a thread that has
/// stopped is closed, never left open.
final class ConnectionHandoff: Sendable {
    /// An accepted socket on its way to another thread.
    struct Socket: Sendable {
        var fd: Int32
        var remote: String
        var configuration: ListenerConfiguration
        /// The fault start delay chosen when it was accepted (milliseconds).
        var startDelay: Int
    }

    private struct Inbox {
        var sockets: [Socket] = []
        /// The receiving loop has stopped: sockets are closed on arrival.
        var closed = false
    }

    private let inbox = Locked(Inbox())
    /// Sockets posted and not yet taken: they count as this thread's load already.
    private let inFlight = Atomic<Int>(0)

    var pending: Int { inFlight.load(ordering: .relaxed) }

    /// Any thread: queues `socket`; false when the receiving loop has stopped (the caller closes it).
    func post(_ socket: Socket) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            inbox.sockets.append(socket)
            inFlight.wrappingAdd(1, ordering: .relaxed)
            return true
        }
    }

    /// The receiving thread: every socket queued so far.
    func take() -> [Socket] {
        inbox.withLock { inbox in
            defer { inbox.sockets.removeAll() }
            inFlight.wrappingSubtract(inbox.sockets.count, ordering: .relaxed)
            return inbox.sockets
        }
    }

    /// The receiving thread, once its loop has stopped: refuses later sockets; returns the ones still queued.
    func close() -> [Socket] {
        inbox.withLock { $0.closed = true }
        return take()
    }
}

/// The event-loop threads of one server, for choosing where an accepted connection goes.
final class EventLoopPeers: @unchecked Sendable {
    private(set) var workers: [Unowned] = []

    struct Unowned {
        unowned let worker: EventLoopWorker
    }

    /// Set once, before any thread starts.
    func set(_ workers: [EventLoopWorker]) { self.workers = workers.map(Unowned.init) }

    /// The worker with the fewest connections (open plus on their way), `current` on a tie with it.
    func leastLoaded(preferring current: EventLoopWorker) -> EventLoopWorker {
        var best = current
        var bestLoad = current.load
        for peer in workers where peer.worker !== current {
            let load = peer.worker.load
            if load < bestLoad {
                best = peer.worker
                bestLoad = load
            }
        }
        return best
    }
}
