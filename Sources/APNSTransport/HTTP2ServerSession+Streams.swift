import HTTPContract

extension HTTP2ServerSession {
    /// Per-stream request assembly. A class, so that each header field and DATA chunk mutates the one instance in
    /// place (a struct copied out of the dictionary per field made a large header block cost quadratic time).
    final class StreamState {
        var method: String?
        var path: String?
        var scheme: String?
        var authority: String?
        var host: String?
        var headers: [HeaderField] = []
        var body: [UInt8] = []
        var bodyLength = 0
        var headerListSize = 0
        var dispatched = false
        /// Set once `headerListSize` passed the limit: later fields are counted, not kept.
        var headerListTooLarge = false
        /// Reset by this side (body caps, incomplete-stream timeout): later DATA is dropped.
        var refused = false
        /// Body bytes counted against the connection's and the server's buffer budgets.
        var reservedBodyBytes = 0
        var receivedAt: Timestamp
        /// Monotonic nanoseconds when its HEADERS began (incomplete-stream timeout).
        var startedAt: UInt64

        init(receivedAt: Timestamp, startedAt: UInt64) {
            self.receivedAt = receivedAt
            self.startedAt = startedAt
            headers.reserveCapacity(16)  // one allocation for a usual request's fields, not four growths
        }

        static let keptHeaderCapacity = 32
        static let keptBodyCapacity = 2048

        /// Back to the state `init` gives, for a new stream (the session reuses closed streams' objects).
        func reset(receivedAt: Timestamp, startedAt: UInt64) {
            method = nil
            path = nil
            scheme = nil
            authority = nil
            host = nil
            // The arrays keep their storage when the last request let go of it and it is small (then a new stream
            // costs no allocation); otherwise they start afresh, as a new object's do.
            if headers.capacity <= Self.keptHeaderCapacity {
                headers.removeAll(keepingCapacity: true)
            } else {
                headers = []
            }
            headers.reserveCapacity(16)
            if body.capacity <= Self.keptBodyCapacity { body.removeAll(keepingCapacity: true) } else { body = [] }
            bodyLength = 0
            headerListSize = 0
            dispatched = false
            headerListTooLarge = false
            refused = false
            reservedBodyBytes = 0
            self.receivedAt = receivedAt
            self.startedAt = startedAt
        }
    }
}

/// Closed streams' state objects, kept for new streams: a stream then costs no object and, when the last request
/// let go of them, no header or body storage. One per event-loop thread, shared by its sessions, so the objects
/// kept are bounded however many connections the thread serves. Not thread-safe: used on its thread only.
final class SpareStreams {
    var items: [HTTP2ServerSession.StreamState] = []
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }
}
