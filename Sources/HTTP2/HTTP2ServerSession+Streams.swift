import HTTPContract

extension HTTP2ServerSession {
    /// Per-stream request assembly. A class, so that each header field and DATA chunk mutates the one instance in
    /// place (a struct copied out of the dictionary per field made a large header block cost quadratic time). Its
    /// properties are kept free of run-time exclusivity checks as `HTTP2ServerSession` explains.
    final class StreamState {
        var method: String?
        var path: String?
        var scheme: String?
        var authority: String?
        var host: String?
        var headers: [HeaderField]
        var body: [UInt8] = []
        var bodyLength = 0
        var headerListSize = 0
        var dispatched = false
        /// Set once `headerListSize` passed the limit: later fields are counted, not kept.
        var headerListTooLarge = false
        /// Reset by this side (body caps, incomplete-stream timeout): later DATA is dropped.
        var refused = false
        /// Dispatched, its request not yet handed over (`HTTP2ServerSession.forEachEvent`): not reused meanwhile.
        var awaitingHandOver = false
        /// nghttp2 closed the stream.
        var closed = false
        /// Body bytes counted against the connection's and the server's buffer budgets.
        var reservedBodyBytes = 0
        /// The response body nghttp2 has still to read (`HTTP2ServerSession.respond`), from `responseBodyOffset`.
        var responseBody: [UInt8] = []
        var responseBodyOffset = 0
        var receivedAt: Timestamp
        /// Monotonic nanoseconds when its HEADERS began (incomplete-stream timeout).
        var startedAt: UInt64
        /// Its id, and its neighbours in the session's list of open streams (`HTTP2ServerSession.openStreams`).
        /// Both held: the session breaks the pair's cycle when it takes the stream out (`unlink`, `deinit`).
        var streamID: Int32 = 0
        var next: StreamState?
        var previous: StreamState?

        init(receivedAt: Timestamp, startedAt: UInt64) {
            self.receivedAt = receivedAt
            self.startedAt = startedAt
            var fields: [HeaderField] = []
            fields.reserveCapacity(16)  // one allocation for a usual request's fields, not four growths
            headers = fields
        }

        /// Adds a kept header field. The array is moved into a local for the append and back (two swaps): no access
        /// to the stored property stays open across the append, which may reallocate (see `HTTP2ServerSession`).
        @inline(__always)
        func append(_ field: HeaderField) {
            var fields: [HeaderField] = []
            swap(&fields, &headers)
            fields.append(field)
            swap(&fields, &headers)
        }

        /// Adds request body bytes, moved into a local as `append(_:)` does.
        func appendBody(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
            var kept: [UInt8] = []
            swap(&kept, &body)
            kept.append(contentsOf: bytes)
            swap(&kept, &body)
        }

        /// Lets the request body go (swapped out, so it is released after the access ends).
        func dropBody() {
            var dropped: [UInt8] = []
            swap(&dropped, &body)
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
    private var items: [HTTP2ServerSession.StreamState] = []
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    var count: Int { items.count }

    /// A kept object, if any. The array is moved into a local for the change and back (no access to the stored
    /// property stays open across it: see `HTTP2ServerSession`), as in `keep(_:)`.
    func take() -> HTTP2ServerSession.StreamState? {
        var kept: [HTTP2ServerSession.StreamState] = []
        swap(&kept, &items)
        let stream = kept.popLast()
        swap(&kept, &items)
        return stream
    }

    /// Keeps a closed stream's object, unless `limit` are kept.
    func keep(_ stream: HTTP2ServerSession.StreamState) {
        var kept: [HTTP2ServerSession.StreamState] = []
        swap(&kept, &items)
        if kept.count < limit { kept.append(stream) }
        swap(&kept, &items)
    }
}
