import Synchronization

/// The contract between the HTTP/2 transport and whatever answers requests. The transport knows nothing about
/// APNs: it hands over complete requests and executes what comes back.
///
/// Threading: one `HTTP2ConnectionHandler` belongs to one connection and is called only on that connection's
/// event-loop thread. `ResponseSink.send` may be called from any thread, once per request.
public protocol HTTP2Application: Sendable {
    /// Called on the connection's thread once the connection is established (after the TLS handshake).
    func connectionOpened(_ connection: ConnectionInfo) -> any HTTP2ConnectionHandler
}

public protocol HTTP2ConnectionHandler: AnyObject {
    /// SETTINGS_MAX_CONCURRENT_STREAMS for the server's first SETTINGS frame (APNs: 1 until the first valid
    /// provider token, then 1000; A-SEND, A-CONN).
    var initialMaxConcurrentStreams: UInt32 { get }
    /// A request has arrived complete (END_STREAM seen) or its body passed the buffering limit. The request is
    /// handed over (`consuming`): a handler that keeps it (a delivery record) takes it without a copy; one declared
    /// with a plain parameter borrows it, as before.
    func handle(_ request: consuming HTTPRequest, sink: ResponseSink)
    /// The connection is gone; no further calls follow.
    func connectionClosed()
}

/// A change to the connection that accompanies a response: what fault injection and the token rules use.
public enum ConnectionAction: Sendable, Equatable {
    /// Send SETTINGS with this SETTINGS_MAX_CONCURRENT_STREAMS (APNs allows one stream until the first valid
    /// provider token: A-SEND, A-CONN).
    case setMaxConcurrentStreams(UInt32)
    /// Send GOAWAY with this HTTP/2 error code and debug data, then close once in-flight streams finish.
    case goAway(errorCode: UInt32, debugData: [UInt8])
    /// Reset the request's stream instead of answering (the response is ignored).
    case resetStream(errorCode: UInt32)
    /// GOAWAY naming `lastStreamID`. `beforeResponse`: sent before the response, which is then sent only if
    /// `lastStreamID` covers the request's stream (fault injection).
    case goAwayNaming(lastStreamID: Int32, errorCode: UInt32, debugData: [UInt8], beforeResponse: Bool)
    /// Close the TCP connection at once: no response, no GOAWAY (fault injection).
    case closeConnection
    /// Send the response (and the other actions) after this many milliseconds, on the event loop's timer.
    case delayResponse(milliseconds: Int)
}

/// Where a response goes. Thread-safe; the first `send` wins, later ones are ignored.
public final class ResponseSink: Sendable {
    private enum Destination: Sendable {
        case closure(@Sendable (HTTPResponse, [ConnectionAction]) -> Void)
        case target(any ResponseTarget, connectionID: UInt64, streamID: Int32)
    }

    private let destination: Destination
    private let answered = Atomic<Bool>(false)

    public init(_ deliver: @escaping @Sendable (HTTPResponse, [ConnectionAction]) -> Void) {
        destination = .closure(deliver)
    }

    /// A sink for one stream of a transport: one object per request (no closure context, no separate
    /// first-answer flag).
    public init(target: any ResponseTarget, connectionID: UInt64, streamID: Int32) {
        destination = .target(target, connectionID: connectionID, streamID: streamID)
    }

    public func send(_ response: HTTPResponse, actions: [ConnectionAction] = []) {
        guard answered.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        deliver(response, actions: actions)
    }

    private func deliver(_ response: consuming HTTPResponse, actions: consuming [ConnectionAction]) {
        switch destination {
        case .closure(let deliver):
            deliver(response, actions)
        case .target(let target, let connectionID, let streamID):
            target.deliver(response, actions: actions, connectionID: connectionID, streamID: streamID)
        }
    }
}

/// What a transport's stream sinks hand their response to (the event loop that owns the connection), from any
/// thread.
public protocol ResponseTarget: AnyObject, Sendable {
    /// The answer is handed over (`consuming`): a target that queues it keeps it without a copy.
    func deliver(
        _ response: consuming HTTPResponse, actions: consuming [ConnectionAction], connectionID: UInt64, streamID: Int32)
}
