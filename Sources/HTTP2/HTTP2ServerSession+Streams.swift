import HTTPContract

extension HTTP2ServerSession {
    /// Per-stream request assembly. A class, so that each header field and DATA chunk mutates the one instance in
    /// place (a struct copied out of the dictionary per field made a large header block cost quadratic time). Its
    /// properties are not checked for exclusivity at run time (see `HTTP2ServerSession`).
    final class StreamState {
        @exclusivity(unchecked) var method: String?
        @exclusivity(unchecked) var path: String?
        @exclusivity(unchecked) var scheme: String?
        @exclusivity(unchecked) var authority: String?
        @exclusivity(unchecked) var host: String?
        @exclusivity(unchecked) var headers: [HeaderField] = []
        @exclusivity(unchecked) var body: [UInt8] = []
        @exclusivity(unchecked) var bodyLength = 0
        @exclusivity(unchecked) var headerListSize = 0
        @exclusivity(unchecked) var dispatched = false
        /// Set once `headerListSize` passed the limit: later fields are counted, not kept.
        @exclusivity(unchecked) var headerListTooLarge = false
        /// Reset by this side (body caps, incomplete-stream timeout): later DATA is dropped.
        @exclusivity(unchecked) var refused = false
        /// Dispatched, its request not yet handed over (`HTTP2ServerSession.forEachEvent`): not reused meanwhile.
        @exclusivity(unchecked) var awaitingHandOver = false
        /// nghttp2 closed the stream.
        @exclusivity(unchecked) var closed = false
        /// Body bytes counted against the connection's and the server's buffer budgets.
        @exclusivity(unchecked) var reservedBodyBytes = 0
        /// The response body nghttp2 has still to read (`HTTP2ServerSession.respond`), from `responseBodyOffset`.
        @exclusivity(unchecked) var responseBody: [UInt8] = []
        @exclusivity(unchecked) var responseBodyOffset = 0
        @exclusivity(unchecked) var receivedAt: Timestamp
        /// Monotonic nanoseconds when its HEADERS began (incomplete-stream timeout).
        @exclusivity(unchecked) var startedAt: UInt64
        /// Its id, and its neighbours in the session's list of open streams (`HTTP2ServerSession.openStreams`): the
        /// next one held, the previous one not (it holds this one).
        @exclusivity(unchecked) var streamID: Int32 = 0
        @exclusivity(unchecked) var next: StreamState?
        @exclusivity(unchecked) unowned var previous: StreamState?

        init(receivedAt: Timestamp, startedAt: UInt64) {
            self.receivedAt = receivedAt
            self.startedAt = startedAt
            headers.reserveCapacity(16)  // one allocation for a usual request's fields, not four growths
        }

        /// Adds a kept header field. The array is moved into a local for the append (two swaps, checked by the
        /// compiler) instead of an access to the property held across the append (checked at run time).
        @inline(__always)
        func append(_ field: HeaderField) {
            var fields: [HeaderField] = []
            swap(&fields, &headers)
            fields.append(field)
            swap(&fields, &headers)
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
            var fields: [HeaderField] = []
            swap(&fields, &headers)
            if fields.capacity <= Self.keptHeaderCapacity {
                // Emptied from the end, one field at a time: `removeAll(keepingCapacity:)` goes through the
                // general `replaceSubrange`, several hundred instructions more for a request's dozen fields.
                for _ in 0..<fields.count { fields.removeLast() }
            } else {
                fields = []
            }
            fields.reserveCapacity(16)
            swap(&fields, &headers)
            var bytes: [UInt8] = []
            swap(&bytes, &body)
            if bytes.capacity <= Self.keptBodyCapacity { bytes.removeAll(keepingCapacity: true) } else { bytes = [] }
            swap(&bytes, &body)
            bodyLength = 0
            headerListSize = 0
            dispatched = false
            headerListTooLarge = false
            refused = false
            awaitingHandOver = false
            closed = false
            reservedBodyBytes = 0
            if !responseBody.isEmpty { responseBody = [] }
            responseBodyOffset = 0
            self.receivedAt = receivedAt
            self.startedAt = startedAt
        }
    }
}

/// Closed streams' state objects, kept for new streams: a stream then costs no object and, when the last request
/// let go of them, no header or body storage. One per event-loop thread, shared by its sessions, so the objects
/// kept are bounded however many connections the thread serves. Not thread-safe: used on its thread only.
final class SpareStreams {
    @exclusivity(unchecked) var items: [HTTP2ServerSession.StreamState] = []
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }
}
