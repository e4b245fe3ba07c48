import HTTPContract
import CNative
import Testing
@testable import HTTP2

/// The nghttp2 server session paired with an nghttp2 client session in memory: no sockets.
@Suite struct HTTP2ServerSessionTests {
    static func makeServer(maxConcurrentStreams: UInt32 = 1000, settings: TransportSettings = TransportSettings()) -> HTTP2ServerSession {
        HTTP2ServerSession(connection: .inMemory, settings: settings, maxConcurrentStreams: maxConcurrentStreams, now: { .zero })
    }

    static func requests(_ events: [HTTP2ServerSession.Event]) -> [HTTPRequest] {
        events.compactMap { if case .request(let request) = $0 { request } else { nil } }
    }

    @Test func theServerAnnouncesAPNsSettingsFirst() {
        let client = InMemoryClient()
        let server = Self.makeServer(maxConcurrentStreams: 1)
        shuttle(client, server)
        #expect(client.frameTypesReceived.first == UInt8(NGHTTP2_SETTINGS.rawValue))
        let settings = Dictionary(uniqueKeysWithValues: client.settingsFrames.first!.map { ($0.id, $0.value) })
        #expect(settings[Int32(NGHTTP2_SETTINGS_HEADER_TABLE_SIZE.rawValue)] == 4096)
        #expect(settings[Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue)] == 1)
        #expect(settings[Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue)] == 65535)
        #expect(settings[Int32(NGHTTP2_SETTINGS_MAX_FRAME_SIZE.rawValue)] == 16384)
        #expect(settings[Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue)] == 8000)
    }

    @Test func aRequestArrivesWithHeadersInOrderIncludingDuplicatesAndABodyOfSeveralFrames() {
        let client = InMemoryClient()
        let server = Self.makeServer()
        client.request(
            path: "/3/device/abcd",
            headers: [("apns-topic", "com.example.app"), ("apns-id", "A"), ("apns-id", "B"), ("authorization", "bearer ")],
            chunks: [Array("{\"aps\":".utf8), Array("{}".utf8), Array("}".utf8)])
        var received: [HTTPRequest] = []
        shuttle(client, server) { if case .request(let request) = $0 { received.append(request) } }
        #expect(received.count == 1)
        let request = received[0]
        #expect(request.method == "POST" && request.path == "/3/device/abcd" && request.authority == "localhost")
        #expect(request.headers.map(\.name) == ["apns-topic", "apns-id", "apns-id", "authorization"])
        #expect(request.values("apns-id") == ["A", "B"])
        #expect(request.value("authorization") == "bearer ", "trailing whitespace reaches the application")
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"aps":{}}"#)
    }

    @Test func hostStandsInForAuthorityAndARequestWithoutBodyIsComplete() {
        let client = InMemoryClient()
        let server = Self.makeServer()
        client.request(path: "/3/device/ab", headers: [("host", "api.sandbox.push.apple.com")], chunks: nil, authority: nil)
        var received: [HTTPRequest] = []
        shuttle(client, server) { if case .request(let request) = $0 { received.append(request) } }
        #expect(received.first?.authority == "api.sandbox.push.apple.com")
        #expect(received.first?.body.isEmpty == true)
    }

    @Test func anErrorResponseIsHeadersAndOneDataFrameAndASuccessIsHeadersOnly() {
        let client = InMemoryClient()
        let server = Self.makeServer()
        let ok = client.request(path: "/a", chunks: nil)
        let bad = client.request(path: "/b", chunks: nil)
        shuttle(client, server)
        server.respond(streamID: ok, response: HTTPResponse(status: 200, headers: [HeaderField("apns-id", "X")]))
        server.respond(streamID: bad, response: HTTPResponse(
            status: 400, headers: [HeaderField("content-type", "application/json")], body: Array(#"{"reason":"BadPath"}"#.utf8)))
        shuttle(client, server)
        #expect(client.responses[ok]?.status == 200)
        #expect(client.responses[ok]?.dataFrames == 0)
        #expect(client.responses[ok]?.ended == true)
        #expect(client.responses[bad]?.dataFrames == 1)
        #expect(String(decoding: client.responses[bad]!.body, as: UTF8.self) == #"{"reason":"BadPath"}"#)
        #expect(client.responses[bad]?.headers.contains(HeaderField("content-length", "20")) == true)
    }

    @Test func anAnswerToHEADKeepsItsContentLengthAndSendsNoBody() {
        let client = InMemoryClient()
        let server = Self.makeServer()
        let head = client.request(path: "/3/device/ab", chunks: nil, method: "HEAD")
        shuttle(client, server)
        server.respond(streamID: head, response: HTTPResponse(
            status: 405, headers: [HeaderField("content-type", "application/json")], body: Array(#"{"reason":"MethodNotAllowed"}"#.utf8)))
        shuttle(client, server)
        #expect(client.responses[head]?.status == 405)
        #expect(client.responses[head]?.ended == true)
        #expect(client.responses[head]?.dataFrames == 0, "RFC 9110 §9.3.2: no content in an answer to HEAD")
        #expect(client.responses[head]?.headers.contains(HeaderField("content-length", "29")) == true)
    }

    @Test func manyStreamsAnsweredInReverseOrderEachGetTheirOwnAnswer() {
        let client = InMemoryClient()
        let server = Self.makeServer()
        let streams = (0..<100).map { client.request(path: "/n/\($0)", chunks: [[UInt8(ascii: "x")]]) }
        var received: [HTTPRequest] = []
        shuttle(client, server) { if case .request(let request) = $0 { received.append(request) } }
        #expect(received.count == 100)
        for request in received.reversed() {
            server.respond(streamID: request.streamID, response: HTTPResponse(status: 200, headers: [HeaderField("x-path", request.path)]))
        }
        shuttle(client, server)
        for (index, stream) in streams.enumerated() {
            #expect(client.responses[stream]?.headers.first { $0.name == "x-path" }?.value == "/n/\(index)")
        }
    }

    /// Re-entrancy: the driver answers from its event handling, right after `receive` returned (nghttp2 is off the
    /// stack); answers submitted there go out with the next drain.
    @Test func answeringWhileHandlingEventsWorks() {
        let client = InMemoryClient()
        let server = Self.makeServer()
        let streams = (0..<10).map { client.request(path: "/r/\($0)", chunks: [Array("{}".utf8)]) }
        shuttle(client, server) { event in
            if case .request(let request) = event {
                server.respond(streamID: request.streamID, response: HTTPResponse(status: 200))
            }
        }
        #expect(streams.allSatisfy { client.responses[$0]?.status == 200 && client.responses[$0]?.ended == true })
    }

    @Test func pingsAreAckedAndPriorityIsIgnored() {
        let client = InMemoryClient()
        let server = Self.makeServer()
        let stream = client.request(path: "/a", chunks: nil)
        client.priority(streamID: stream)
        client.ping()
        var count = 0
        shuttle(client, server) { _ in count += 1 }
        #expect(client.pingAcks == 1)
        #expect(count == 1)
        #expect(client.goAways.isEmpty)
    }

    @Test func aBodyOverTheLimitIsHandedOverEarlyAndTheStreamIsResetAfterTheAnswer() {
        var settings = TransportSettings()
        settings.requestBodyLimit = 1024
        let client = InMemoryClient()
        let server = Self.makeServer(settings: settings)
        let stream = client.request(path: "/big", chunks: [[UInt8](repeating: 0x20, count: 5000)])
        var received: [HTTPRequest] = []
        shuttle(client, server) { if case .request(let request) = $0 { received.append(request) } }
        #expect(received.count == 1)
        #expect(received.first!.body.count == 1024)
        #expect(received.first!.bodyLength > 1024)
        server.respond(streamID: stream, response: HTTPResponse(status: 413, body: Array(#"{"reason":"PayloadTooLarge"}"#.utf8)))
        shuttle(client, server)
        #expect(client.responses[stream]?.status == 413)
        #expect(client.responses[stream]?.ended == true, "the answer is complete before any reset")
    }

    @Test func aHeaderListOverTheAdvertisedSizeIsNotARequest() {
        let client = InMemoryClient()
        let server = Self.makeServer()
        client.request(path: "/a", headers: [("x-padding", String(repeating: "p", count: 9000))], chunks: nil)
        var events: [HTTP2ServerSession.Event] = []
        shuttle(client, server) { events.append($0) }
        #expect(Self.requests(events).isEmpty)
        guard case .headerListTooLarge(_, let size)? = events.first else {
            Issue.record("expected headerListTooLarge, got \(events)")
            return
        }
        #expect(size > 8000)
    }

    @Test func connectionActionsBecomeFrames() {
        let client = InMemoryClient()
        let server = Self.makeServer(maxConcurrentStreams: 1)
        let first = client.request(path: "/a", chunks: nil)
        shuttle(client, server)
        server.respond(streamID: first, response: HTTPResponse(status: 200))
        server.apply(.setMaxConcurrentStreams(1000), streamID: first)
        shuttle(client, server)
        let last = client.settingsFrames.last!
        #expect(last.contains { $0.id == Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue) && $0.value == 1000 })

        let second = client.request(path: "/b", chunks: nil)
        shuttle(client, server)
        server.respond(streamID: second, response: HTTPResponse(status: 503, body: Array(#"{"reason":"Shutdown"}"#.utf8)))
        server.apply(.goAway(errorCode: 0, debugData: Array(#"{"reason":"Shutdown"}"#.utf8)), streamID: second)
        shuttle(client, server)
        #expect(client.responses[second]?.ended == true)
        #expect(client.goAways == [.init(lastStreamID: second, errorCode: 0, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))])
        let goAwayIndex = client.frameTypesReceived.lastIndex(of: UInt8(NGHTTP2_GOAWAY.rawValue))!
        let dataIndex = client.frameTypesReceived.lastIndex(of: UInt8(NGHTTP2_DATA.rawValue))!
        #expect(dataIndex < goAwayIndex, "the GOAWAY follows the answer it accompanies")
        #expect(!server.wantsRead, "no stream left open after GOAWAY: the connection can close")

        let third = InMemoryClient()
        let other = Self.makeServer()
        let stream = third.request(path: "/c", chunks: nil)
        shuttle(third, other)
        other.apply(.resetStream(errorCode: NGHTTP2_REFUSED_STREAM.rawValue), streamID: stream)
        shuttle(third, other)
        #expect(third.responses[stream]?.resetCode == NGHTTP2_REFUSED_STREAM.rawValue)
    }

    @Test func answeringAStreamTheClientAlreadyResetIsIgnored() {
        let client = InMemoryClient()
        let server = Self.makeServer()
        let stream = client.request(path: "/a", chunks: nil)
        shuttle(client, server)
        client.reset(streamID: stream)
        shuttle(client, server)
        server.respond(streamID: stream, response: HTTPResponse(status: 200))
        shuttle(client, server)
        #expect(client.responses[stream]?.status == nil)
        #expect(server.fatalError == nil)
    }

    @Test func aBrokenPrefaceIsFatalAndStillProducesAGoAway() {
        let server = Self.makeServer()
        let garbage = Array("GARBAGE THAT IS NOT A PREFACE AT ALL\r\n".utf8)
        let ok = garbage.withUnsafeBytes { server.receive($0) }
        #expect(!ok)
        #expect(server.fatalError != nil)
    }
}
