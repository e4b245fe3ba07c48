import Dispatch
import Foundation
import HTTPContract
import Synchronization
import Testing
@testable import APNSCommandLine
@testable import HTTP2

/// `HTTP2Server.shutdown` has finished with everything its threads used when it returns: every connection's handler
/// was told, every bufferevent finalized (so every SSL object freed and every socket closed) on the loop threads,
/// and no thread still holds a worker or the TLS context, so the caller's release frees them at once, where the
/// caller is. A loop thread that freed them later raced `exit()` (OpenSSL's clean-up ran first).
@Suite(.serialized) struct ServerShutdownReleaseTests {
    static let certs = HTTP2ClientSocketTests.certs

    /// Answers 200; signals each connection it opens and counts those it closes.
    final class CountingApplication: HTTP2Application, @unchecked Sendable {
        let opened = DispatchSemaphore(value: 0)
        let closed = Atomic<Int>(0)

        func connectionOpened(_ connection: ConnectionInfo) -> any HTTP2ConnectionHandler {
            opened.signal()
            return Handler(owner: self)
        }

        final class Handler: HTTP2ConnectionHandler {
            let owner: CountingApplication
            init(owner: CountingApplication) { self.owner = owner }
            var initialMaxConcurrentStreams: UInt32 { 100 }
            func handle(_ request: HTTPRequest, sink: ResponseSink) { sink.send(HTTPResponse(status: 200)) }
            func connectionClosed() { owner.closed.wrappingAdd(1, ordering: .relaxed) }
        }
    }

    final class Weak<Object: AnyObject> {
        weak var object: Object?
        init(_ object: Object) { self.object = object }
    }

    /// An h2c connection with a request whose body never comes: its stream is still open when the loop ends.
    static func connectWithOpenStream(port: Int) throws -> ClientSocket {
        let socket = try ClientSocket(host: "127.0.0.1", port: port, tls: nil, timeout: 10)
        // Preface, empty SETTINGS, then HEADERS (END_HEADERS, no END_STREAM) on stream 1: :method POST, :scheme
        // https, :path / (static table 3, 7, 4) and :authority localhost (literal, name index 1).
        var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        bytes += [0, 0, 0, 4, 0, 0, 0, 0, 0]
        let block: [UInt8] = [0x83, 0x87, 0x84, 0x41, 9] + Array("localhost".utf8)
        bytes += [0, 0, UInt8(block.count), 1, 0x04, 0, 0, 0, 1] + block
        #expect(bytes.withUnsafeBytes { socket.write($0) } == bytes.count)
        return socket
    }

    /// Reads what is already there, without waiting: true when the server has closed the connection (TCP end of
    /// file, under TLS too).
    static func closedWithoutWaiting(_ socket: ClientSocket) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<1000 {
            switch buffer.withUnsafeMutableBytes({ socket.read(into: $0) }) {
            case .bytes: continue
            case .closed: return true
            // The server frees the SSL object without a close_notify: OpenSSL 3 reports the TCP close this way.
            case .failed(let why): return why.contains("unexpected eof")
            case .wouldBlock: return false
            }
        }
        return false
    }

    @Test func shutdownFreesEveryConnectionBeforeReturningAndNoThreadKeepsTheServer() throws {
        let application = CountingApplication()
        var server: HTTP2Server? = try HTTP2Server(
            listeners: [
                ListenerConfiguration(host: "127.0.0.1", port: 0, useTLS: true, label: "development"),
                ListenerConfiguration(host: "127.0.0.1", port: 0, useTLS: false, label: "development"),
            ],
            tls: TLSFiles(certificateChainPath: Self.certs + "/server.pem", privateKeyPath: Self.certs + "/server.key"),
            application: application, threads: 2)
        let ports = try #require(server).start()
        let clients = try (0..<3).map { _ in
            try ClientSocket(
                host: "localhost", port: ports[0], tls: TLSClientConfiguration(caFile: Self.certs + "/dev-ca.pem"), timeout: 10)
        } + [Self.connectWithOpenStream(port: ports[1])]
        for _ in 0..<4 { #expect(application.opened.wait(timeout: .now() + 30) == .success) }
        let workers = try #require(server).workers.map(Weak.init)
        let tls = Weak(try #require(server?.workers.first?.tls))

        try #require(server).shutdown(gracePeriod: 0)

        #expect(application.closed.load(ordering: .relaxed) == 4, "every connection's handler was told")
        for worker in workers {
            #expect(worker.object?.pendingCallbacks == 0, "no bufferevent is left for event_base_free to finalize")
        }
        for client in clients {
            #expect(Self.closedWithoutWaiting(client), "every client sees its connection closed when shutdown returns")
        }
        server = nil
        for worker in workers { #expect(worker.object == nil, "no loop thread still holds its worker") }
        #expect(tls.object == nil, "the SSL_CTX is freed with the server")
    }

    @Test func shutdownOfAServerNeverStartedReturns() throws {
        let server = try HTTP2Server(
            listeners: [ListenerConfiguration(host: "127.0.0.1", port: 0, useTLS: false, label: "development")],
            tls: nil, application: CountingApplication(), threads: 2)
        server.shutdown(gracePeriod: 0)
    }
}
