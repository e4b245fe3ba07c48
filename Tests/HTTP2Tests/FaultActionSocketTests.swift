import HTTPContract
import CNative
import Foundation
import Testing
@testable import HTTP2

/// Fault-injection connection actions over real loopback sockets: a response delayed on the event loop's timer, a
/// connection closed without GOAWAY, and a server that still shuts down cleanly with a delayed response pending.
@Suite struct FaultActionSocketTests {
    /// Answers 200 at once, with the action the path names.
    final class ActionApplication: HTTP2Application {
        func connectionOpened(_ connection: ConnectionInfo) -> any HTTP2ConnectionHandler { Handler() }

        final class Handler: HTTP2ConnectionHandler {
            var initialMaxConcurrentStreams: UInt32 { 100 }
            func handle(_ request: HTTPRequest, sink: ResponseSink) {
                let actions: [ConnectionAction] = switch request.path {
                case "/delay": [.delayResponse(milliseconds: 20)]
                case "/delay-long": [.delayResponse(milliseconds: 600_000)]
                case "/close": [.closeConnection]
                default: []
                }
                sink.send(HTTPResponse(status: 200, headers: [HeaderField("x-path", request.path)]), actions: actions)
            }
            func connectionClosed() {}
        }
    }

    static func start() throws -> (HTTP2Server, Int) {
        let server = try HTTP2Server(
            listeners: [ListenerConfiguration(host: "127.0.0.1", port: 0, useTLS: false, label: "development")],
            tls: nil, application: ActionApplication(), threads: 1)
        return (server, try server.start()[0])
    }

    @Test func aDelayedResponseArrivesAndAnUndelayedOneIsNotHeldBehindIt() throws {
        let (server, port) = try Self.start()
        defer { server.shutdown(gracePeriod: 1) }
        let fd = try HTTP2ServerSocketTests.connect(port)
        defer { close(fd) }
        let client = InMemoryClient()
        let delayed = client.request(path: "/delay", chunks: nil)
        let parked = client.request(path: "/delay-long", chunks: nil)
        let plain = client.request(path: "/plain", chunks: nil)
        #expect(HTTP2ServerSocketTests.exchange(client, fd: fd) { client.responses[delayed]?.ended == true })
        #expect(client.responses[plain]?.status == 200)
        #expect(client.responses[parked]?.status == nil)
    }

    @Test func closeConnectionClosesTheSocketWithoutGoAway() throws {
        let (server, port) = try Self.start()
        defer { server.shutdown(gracePeriod: 1) }
        let fd = try HTTP2ServerSocketTests.connect(port)
        defer { close(fd) }
        let client = InMemoryClient()
        let stream = client.request(path: "/close", chunks: nil)
        var closed = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<50 where !closed {
            let output = client.output()
            if !output.isEmpty { _ = output.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { closed = true } else if count > 0 { client.input(Array(buffer[0..<count])) }
        }
        #expect(closed)
        #expect(client.goAways.isEmpty)
        #expect(client.responses[stream]?.status == nil)
    }
}
