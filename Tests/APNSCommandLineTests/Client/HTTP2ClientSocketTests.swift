import APNSCore
import HTTPContract
import HTTP2
import Foundation
import Testing
@testable import APNSCommandLine

/// The client against the project's real HTTP/2 server over loopback sockets (TLS with the dev CA, and h2c):
/// stream limits, the one-stream start, GOAWAY, timeouts, and peers that are not HTTP/2.
@Suite(.serialized) struct HTTP2ClientSocketTests {
    static let certs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("certs").path

    /// Answers 200 after `delayMilliseconds`, announcing `maxConcurrentStreams`; with `goAwayEvery`, every Nth answer
    /// on a connection carries GOAWAY. Keeps a log of arrivals and answers.
    final class ScriptedApplication: HTTP2Application, @unchecked Sendable {
        let maxConcurrentStreams: UInt32
        let delayMilliseconds: Int
        let goAwayEvery: Int?
        let neverAnswer: Bool
        let lock = NSLock()
        var events: [String] = []
        var inFlight = 0
        var peakInFlight = 0
        var connections = 0

        init(maxConcurrentStreams: UInt32 = 100, delayMilliseconds: Int = 2, goAwayEvery: Int? = nil, neverAnswer: Bool = false) {
            self.maxConcurrentStreams = maxConcurrentStreams
            self.delayMilliseconds = delayMilliseconds
            self.goAwayEvery = goAwayEvery
            self.neverAnswer = neverAnswer
        }

        func connectionOpened(_ connection: ConnectionInfo) -> any HTTP2ConnectionHandler {
            lock.withLock { connections += 1 }
            return Handler(owner: self)
        }

        final class Handler: HTTP2ConnectionHandler {
            let owner: ScriptedApplication
            var answered = 0
            let lock = NSLock()
            init(owner: ScriptedApplication) { self.owner = owner }
            var initialMaxConcurrentStreams: UInt32 { owner.maxConcurrentStreams }

            func handle(_ request: HTTPRequest, sink: ResponseSink) {
                let owner = owner
                owner.lock.withLock {
                    owner.events.append("arrive \(request.path)")
                    owner.inFlight += 1
                    owner.peakInFlight = max(owner.peakInFlight, owner.inFlight)
                }
                if owner.neverAnswer { return }
                let number = lock.withLock { answered += 1; return answered }
                let goAway = owner.goAwayEvery.map { number % $0 == 0 } ?? false
                let path = request.path
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(owner.delayMilliseconds)) {
                    owner.lock.withLock {
                        owner.inFlight -= 1
                        owner.events.append("answer \(path)")
                    }
                    let actions: [ConnectionAction] = goAway ? [.goAway(errorCode: 0, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))] : []
                    sink.send(HTTPResponse(status: 200, headers: [HeaderField("apns-id", "00000000-0000-0000-0000-000000000001")]), actions: actions)
                }
            }

            func connectionClosed() {}
        }
    }

    static func start(_ application: ScriptedApplication, tls: Bool = true) throws -> (HTTP2Server, HTTP2Endpoint) {
        let server = try HTTP2Server(
            listeners: [ListenerConfiguration(host: "127.0.0.1", port: 0, useTLS: tls, label: "development")],
            tls: TLSFiles(certificateChainPath: certs + "/server.pem", privateKeyPath: certs + "/server.key"),
            application: application, threads: 1)
        let port = try server.start()[0]
        return (server, HTTP2Endpoint(host: tls ? "localhost" : "127.0.0.1", port: port, useTLS: tls))
    }

    static func pushes(_ count: Int) -> @Sendable (Int) -> BuiltPush {
        { index in
            BuiltPush(deviceToken: "aa\(index)", pushType: .alert, topic: "com.example.app",
                      request: HTTP2Request(path: "/3/device/aa\(index)", headers: [HeaderField("apns-topic", "com.example.app")], body: Array(#"{"aps":{}}"#.utf8)))
        }
    }

    static func send(_ count: Int, to endpoint: HTTP2Endpoint, concurrency: Int, connections: Int = 1, timeout: Double = 30) -> ([PushOutcome], PushRunSummary) {
        let sender = PushSender(configuration: PushSenderConfiguration(
            endpoint: endpoint, tls: TLSClientConfiguration(caFile: certs + "/dev-ca.pem"), concurrency: concurrency,
            connections: connections, retries: 0, requestTimeout: timeout))
        let outcomes = Locked<[PushOutcome]>([])
        let summary = sender.send(count: count, job: pushes(count)) { outcome in outcomes.withLock { $0.append(outcome) } }
        return (outcomes.withLock { $0 }.sorted { $0.index < $1.index }, summary)
    }

    @Test func tlsWithTheDevCANegotiatesH2() throws {
        let application = ScriptedApplication()
        let (server, endpoint) = try Self.start(application)
        defer { server.shutdown(gracePeriod: 1) }
        let connection = try HTTP2ClientConnection(endpoint: endpoint, tls: TLSClientConfiguration(caFile: Self.certs + "/dev-ca.pem"))
        #expect(connection.alpn == "h2")
        #expect(connection.serverMaxConcurrentStreams == 100)
        connection.close()
    }

    @Test func untrustedCertificateIsATLSError() throws {
        let (server, endpoint) = try Self.start(ScriptedApplication())
        defer { server.shutdown(gracePeriod: 1) }
        #expect {
            _ = try HTTP2ClientConnection(endpoint: endpoint, tls: TLSClientConfiguration(caFile: nil))
        } throws: { error in
            guard case .tls(let message) = error as? HTTP2ClientError else { return false }
            return message.contains("not trusted")
        }
    }

    /// Many pushes share one connection, never more in flight than the server's MAX_CONCURRENT_STREAMS.
    @Test func respectsTheServersStreamLimit() throws {
        let application = ScriptedApplication(maxConcurrentStreams: 3, delayMilliseconds: 5)
        let (server, endpoint) = try Self.start(application)
        defer { server.shutdown(gracePeriod: 1) }
        let (outcomes, summary) = Self.send(30, to: endpoint, concurrency: 20)
        #expect(outcomes.count == 30)
        #expect(outcomes.allSatisfy { $0.status == 200 && $0.connection == 1 })
        #expect(summary.connectionsOpened == 1)
        #expect(application.lock.withLock { application.peakInFlight } <= 3)
        #expect(summary.peakInFlight == 3)
        #expect(summary.exitStatus == 0)
    }

    /// A-SEND, A-CONN: one stream until the first answer, then as many as allowed.
    @Test func oneStreamUntilTheFirstAnswer() throws {
        let application = ScriptedApplication(delayMilliseconds: 20)
        let (server, endpoint) = try Self.start(application, tls: false)
        defer { server.shutdown(gracePeriod: 1) }
        let (outcomes, _) = Self.send(10, to: endpoint, concurrency: 10)
        #expect(outcomes.count == 10)
        let events = application.lock.withLock { application.events }
        #expect(events.prefix(2) == ["arrive /3/device/aa0", "answer /3/device/aa0"])
        #expect(application.lock.withLock { application.peakInFlight } > 1)
    }

    /// After GOAWAY the requests the server did not process go out again on a new connection; all are delivered.
    @Test func goAwayMovesUnprocessedPushesToANewConnection() throws {
        let application = ScriptedApplication(delayMilliseconds: 5, goAwayEvery: 5)
        let (server, endpoint) = try Self.start(application)
        defer { server.shutdown(gracePeriod: 1) }
        let (outcomes, summary) = Self.send(12, to: endpoint, concurrency: 4)
        #expect(outcomes.count == 12)
        #expect(outcomes.allSatisfy { $0.status == 200 }, "\(outcomes.filter { $0.status != 200 })")
        // The streams in flight when GOAWAY came are still answered on the first connection (its last processed
        // stream covers them), so how many connections the rest needs depends on timing: at least a second one.
        #expect(summary.connectionsOpened >= 2)
        #expect(summary.exitStatus == 0)
    }

    @Test func unansweredRequestTimesOut() throws {
        let (server, endpoint) = try Self.start(ScriptedApplication(neverAnswer: true), tls: false)
        defer { server.shutdown(gracePeriod: 1) }
        let (outcomes, summary) = Self.send(1, to: endpoint, concurrency: 1, timeout: 0.3)
        #expect(outcomes.count == 1)
        #expect(outcomes[0].status == nil)
        #expect(outcomes[0].error?.contains("no answer") == true)
        #expect(summary.exitStatus == 2)
    }

    @Test func refusedConnectionIsAConnectionError() throws {
        let port = try Self.closedPort()
        let (outcomes, summary) = Self.send(3, to: HTTP2Endpoint(host: "127.0.0.1", port: port, useTLS: false), concurrency: 1)
        #expect(outcomes.isEmpty)
        #expect(summary.notSent == 3)
        #expect(summary.connectionError?.contains("refused") == true)
        #expect(summary.exitStatus == 2)
    }

    /// An HTTP/1.1 server answers the HTTP/2 preface with a status line: the client says so.
    @Test func http11ServerIsNotHTTP2() throws {
        let listener = try HTTP11Listener()
        defer { listener.stop() }
        #expect {
            _ = try HTTP2ClientConnection(endpoint: HTTP2Endpoint(host: "127.0.0.1", port: listener.port, useTLS: false), timeout: 5)
        } throws: { error in
            guard case .notHTTP2(let message) = error as? HTTP2ClientError else { return false }
            return message.contains("HTTP/1.0 505")
        }
    }

    static func closedPort() throws -> Int {
        let listener = try HTTP11Listener()
        let port = listener.port
        listener.stop()
        return port
    }
}

/// A listener that answers whatever arrives with an HTTP/1.0 status line and closes, as `python -m http.server`
/// does with the HTTP/2 preface.
final class HTTP11Listener: @unchecked Sendable {
    let fd: Int32
    let port: Int
    private let thread: Thread

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let listening = fd
        thread = Thread {
            while true {
                let client = accept(listening, nil, nil)
                if client < 0 { return }
                var buffer = [UInt8](repeating: 0, count: 1024)
                _ = read(client, &buffer, buffer.count)
                let answer = Array("HTTP/1.0 505 HTTP Version Not Supported\r\nContent-Length: 0\r\n\r\n".utf8)
                _ = write(client, answer, answer.count)
                close(client)
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}
