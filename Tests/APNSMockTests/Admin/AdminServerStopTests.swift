@testable import HTTP2
@testable import APNSMock
@testable import APNSCommandLine
@testable import APNSCore
@testable import APNSStore
import Foundation
import Testing

/// A server told to stop right after it started (a SIGTERM just after the listening line) stops: the stop reaches
/// its loop even when the loop thread has not entered `event_base_loop` yet.
@Suite(.timeLimit(.minutes(1))) struct AdminServerStopTests {
    @Test func stoppingRightAfterStartingReturns() throws {
        for _ in 0..<200 {
            let server = try AdminServer(
                host: "127.0.0.1", port: 0, bearerToken: nil, store: InMemoryDeliveryStore(), backend: FakeBackend())
            try server.start()
            server.stop()
        }
    }
}

/// `stop()` with a long poll parked: the poll is answered (503, `Connection: close`) before `stop()` returns, its
/// thread has ended, and no thread the server started still holds the server, so releasing it frees it at once.
@Suite(.timeLimit(.minutes(1))) struct AdminServerStopWithLongPollTests {
    /// What the server has sent so far, read without waiting, and whether it has closed the connection.
    static func receivedWithoutWaiting(_ socket: ClientSocket) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<1000 {
            switch buffer.withUnsafeMutableBytes({ socket.read(into: $0) }) {
            case .bytes(let count): received += buffer[0..<count]
            case .closed: return (String(decoding: received, as: UTF8.self), true)
            case .wouldBlock, .failed: return (String(decoding: received, as: UTF8.self), false)
            }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    @Test func stopAnswersAParkedLongPollAndNoThreadKeepsTheServer() throws {
        let store = InMemoryDeliveryStore()
        var server: AdminServer? = try AdminServer(
            host: "127.0.0.1", port: 0, bearerToken: nil, store: store, backend: FakeBackend())
        weak let released = server
        let port = try #require(server).port
        try #require(server).start()
        let client = try ClientSocket(host: "127.0.0.1", port: port, tls: nil, timeout: 10)
        let request = Array("GET /api/deliveries/wait?timeout_ms=60000 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        #expect(request.withUnsafeBytes { client.write($0) } == request.count)
        #expect(store.longPollSignal.waitUntilParked(), "the long poll is waiting in the store")
        #expect(try #require(server).runningLongPolls == 1)

        try #require(server).stop()

        #expect(try #require(server).runningLongPolls == 0, "the long poll's thread was joined")
        let (text, closed) = Self.receivedWithoutWaiting(client)
        #expect(text.hasPrefix("HTTP/1.1 503"), "answered before stop returned: \(text)")
        #expect(text.contains("the admin API is stopping"))
        #expect(closed, "the connection is closed after the answer")
        server = nil
        #expect(released == nil, "no thread of the server still holds it")
    }

    @Test func aSecondStopReturnsAndTheServerIsReleased() throws {
        var server: AdminServer? = try AdminServer(
            host: "127.0.0.1", port: 0, bearerToken: nil, store: InMemoryDeliveryStore(), backend: FakeBackend())
        weak let released = server
        try #require(server).start()
        try #require(server).stop()
        try #require(server).stop()
        server = nil
        #expect(released == nil)
    }
}
