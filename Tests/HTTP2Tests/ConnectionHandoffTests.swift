import HTTPContract
import Foundation
import Testing
@testable import HTTP2

/// Accepted connections go to the event-loop thread with the fewest open connections, whichever thread's
/// `SO_REUSEPORT` listener the kernel picked (`ConnectionHandoff`).
@Suite struct ConnectionHandoffTests {
    /// Answers 200 at once and notes the thread each connection's requests run on.
    final class ThreadNoting: HTTP2Application {
        let threadsByConnection = Locked<[UInt64: String]>([:])

        func connectionOpened(_ connection: ConnectionInfo) -> any HTTP2ConnectionHandler {
            Handler(owner: self, id: connection.id)
        }

        final class Handler: HTTP2ConnectionHandler {
            let owner: ThreadNoting
            let id: UInt64
            init(owner: ThreadNoting, id: UInt64) {
                self.owner = owner
                self.id = id
            }
            var initialMaxConcurrentStreams: UInt32 { 100 }

            func handle(_ request: HTTPRequest, sink: ResponseSink) {
                let name = "\(pthread_self())"  // the event-loop thread running this connection
                owner.threadsByConnection.withLock { $0[id] = name }
                sink.send(HTTPResponse(status: 200))
            }

            func connectionClosed() {}
        }
    }

    @Test func connectionsOpenedOneAfterAnotherAreSpreadEvenlyOverTheThreads() throws {
        let application = ThreadNoting()
        let server = try HTTP2Server(
            listeners: [ListenerConfiguration(host: "127.0.0.1", port: 0, useTLS: false, label: "development")],
            tls: nil, application: application, threads: 2)
        let port = try server.start()[0]
        var descriptors: [Int32] = []
        for connection in 0..<6 {  // each answered before the next opens, all kept open
            let fd = try HTTP2ServerSocketTests.connect(port)
            descriptors.append(fd)
            let client = InMemoryClient()
            let stream = client.request(path: "/c\(connection)", chunks: [Array("{}".utf8)])
            #expect(HTTP2ServerSocketTests.exchange(client, fd: fd) { client.responses[stream]?.ended == true })
        }
        let threads = application.threadsByConnection.withLock { Array($0.values) }
        #expect(threads.count == 6)
        #expect(Dictionary(grouping: threads, by: { $0 }).values.map(\.count) == [3, 3])
        for fd in descriptors { close(fd) }
        server.shutdown(gracePeriod: 2)
        #expect(server.connectionCount == 0)
    }
}
