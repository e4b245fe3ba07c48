import HTTPContract
import CNative
import Dispatch
import Foundation
import Synchronization
import Testing
@testable import HTTP2

/// `HTTP2Server` over real loopback sockets (h2c), with answers produced on other threads: the path the delivery
/// store takes (its writer thread calls `ResponseSink.send` once a record is durable).
@Suite struct HTTP2ServerSocketTests {
    /// Answers every request from a global queue after a short delay, echoing the path.
    final class DelayedApplication: HTTP2Application {
        let closedConnections = Atomic<Int>(0)

        func connectionOpened(_ connection: ConnectionInfo) -> any HTTP2ConnectionHandler {
            Handler(owner: self)
        }

        final class Handler: HTTP2ConnectionHandler {
            let owner: DelayedApplication
            init(owner: DelayedApplication) { self.owner = owner }
            var initialMaxConcurrentStreams: UInt32 { 100 }

            func handle(_ request: HTTPRequest, sink: ResponseSink) {
                let path = request.path
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) {
                    sink.send(HTTPResponse(status: 200, headers: [HeaderField("x-path", path)]))
                }
            }

            func connectionClosed() { owner.closedConnections.wrappingAdd(1, ordering: .relaxed) }
        }
    }

    static func startServer(_ application: DelayedApplication) throws -> (HTTP2Server, Int) {
        let server = try HTTP2Server(
            listeners: [ListenerConfiguration(host: "127.0.0.1", port: 0, useTLS: false, label: "development")],
            tls: nil, application: application, threads: 2)
        let ports = try server.start()
        return (server, ports[0])
    }

    static func connect(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Sends what the client has to say and feeds back what arrives, until `done` or about 5 s pass.
    static func exchange(_ client: InMemoryClient, fd: Int32, until done: () -> Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<50 {
            let output = client.output()
            if !output.isEmpty { _ = output.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return done() }
            if count > 0 { client.input(Array(buffer[0..<count])) }
            if done() { return true }
        }
        return done()
    }

    @Test func answersSentFromOtherThreadsReachEveryStreamOnEveryConnection() throws {
        let application = DelayedApplication()
        let (server, port) = try Self.startServer(application)
        for connection in 0..<4 {
            let fd = try Self.connect(port)
            let client = InMemoryClient()
            let streams = (0..<20).map { client.request(path: "/c\(connection)/s\($0)", chunks: [Array("{}".utf8)]) }
            let answered = Self.exchange(client, fd: fd) {
                streams.allSatisfy { client.responses[$0]?.ended == true }
            }
            #expect(answered)
            for (index, stream) in streams.enumerated() {
                #expect(client.responses[stream]?.headers.first { $0.name == "x-path" }?.value == "/c\(connection)/s\(index)")
            }
            close(fd)
        }
        server.shutdown(gracePeriod: 2)
        #expect(server.connectionCount == 0)
    }

    @Test func anHTTP1RequestGetsTheAPNsGoAwayOverASocket() throws {
        let application = DelayedApplication()
        let (server, port) = try Self.startServer(application)
        let fd = try Self.connect(port)
        let request = Array("POST /3/device/x HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<50 {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count > 0 { received += buffer[0..<count] }
        }
        close(fd)
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.contains("Unexpected HTTP/1.x request: POST /3/device/x"))
        server.shutdown(gracePeriod: 1)
    }

    @Test func shutdownSendsGoAwayToAnOpenConnectionAndReturns() throws {
        let application = DelayedApplication()
        let (server, port) = try Self.startServer(application)
        let fd = try Self.connect(port)
        let client = InMemoryClient()
        let stream = client.request(path: "/before-shutdown", chunks: nil)
        #expect(Self.exchange(client, fd: fd) { client.responses[stream]?.ended == true })
        let stopped = DispatchSemaphore(value: 0)
        let stopper = Thread {
            server.shutdown(gracePeriod: 3)
            stopped.signal()
        }
        stopper.start()
        #expect(Self.exchange(client, fd: fd) { !client.goAways.isEmpty })
        #expect(client.goAways.first?.errorCode == NGHTTP2_NO_ERROR.rawValue)
        close(fd)
        #expect(stopped.wait(timeout: .now() + 5) == .success, "shutdown returns once the connection is gone")
    }
}
