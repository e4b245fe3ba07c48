import HTTPContract
import CNative
@testable import HTTP2
import Testing

/// A session reuses its closed streams' objects and one header-block buffer for its responses: nothing of an
/// earlier stream or response reaches a later one.
@Suite struct SessionReuseTests {
    @Test func aStreamAfterClosedOnesStartsEmpty() {
        let client = InMemoryClient()
        let server = HTTP2ServerSessionTests.makeServer()
        let first = (0..<3).map {
            client.request(
                path: "/3/device/first\($0)", headers: [("x-first", "\($0)"), ("host", "example.com")],
                chunks: [Array("{\"aps\":{}}".utf8)])
        }
        var received: [HTTPRequest] = []
        shuttle(client, server) { if case .request(let request) = $0 { received.append(request) } }
        for stream in first { server.respond(streamID: stream, response: HTTPResponse(status: 200)) }
        shuttle(client, server)
        #expect(server.openStreamCount == 0)

        let second = client.request(path: "/3/device/second", chunks: nil, method: "GET", authority: "other.example")
        received = []
        shuttle(client, server) { if case .request(let request) = $0 { received.append(request) } }
        #expect(received.count == 1)
        guard let request = received.first else { return }
        #expect(request.streamID == second)
        #expect(request.method == "GET" && request.path == "/3/device/second" && request.scheme == "https")
        #expect(request.authority == "other.example", "this stream's :authority, no earlier host")
        #expect(request.headers.isEmpty)
        #expect(request.body.isEmpty && request.bodyLength == 0)
    }

    @Test func sessionsOfOneThreadShareSpareStreamsAndNothingElse() {
        let spares = SpareStreams(limit: 4)
        let first = HTTP2ServerSession(connection: .inMemory, settings: TransportSettings(), maxConcurrentStreams: 100,
                                       spareStreams: spares, now: { .zero })
        let second = HTTP2ServerSession(connection: .inMemory, settings: TransportSettings(), maxConcurrentStreams: 100,
                                        spareStreams: spares, now: { Timestamp(nanosecondsSinceEpoch: 5) })
        let firstClient = InMemoryClient()
        let streams = (0..<6).map {
            firstClient.request(path: "/p/\($0)", headers: [("x-first", "yes")], chunks: [Array("body".utf8)])
        }
        shuttle(firstClient, first)
        for stream in streams { first.respond(streamID: stream, response: HTTPResponse(status: 200)) }
        shuttle(firstClient, first)
        #expect(first.openStreamCount == 0)

        let secondClient = InMemoryClient()
        let stream = secondClient.request(path: "/q", chunks: nil, authority: "second.example")
        var received: [HTTPRequest] = []
        shuttle(secondClient, second) { if case .request(let request) = $0 { received.append(request) } }
        guard let request = received.first else {
            Issue.record("no request on the second session")
            return
        }
        #expect(request.streamID == stream && request.path == "/q" && request.authority == "second.example")
        #expect(request.headers.isEmpty && request.body.isEmpty && request.bodyLength == 0)
        #expect(request.receivedAt == Timestamp(nanosecondsSinceEpoch: 5))
    }

    /// RFC 7541 §4.1: an entry's size is its name's and value's lengths plus 32.
    @Test func newIDsInEachAnswerDoNotFillTheEncodersTableAndRepeatedFieldsAreIndexed() {
        let client = InMemoryClient()
        let server = HTTP2ServerSessionTests.makeServer()
        var sizes: [Int] = []
        for index in 0..<20 {
            let stream = client.request(path: "/a", chunks: nil)
            shuttle(client, server)
            let id = "00000000-0000-0000-0000-\(String(repeating: "0", count: 10))\(index < 10 ? "0" : "")\(index)"
            let headers = index < 10
                ? [HeaderField("apns-id", id)]
                : [HeaderField("content-type", "application/json"), HeaderField("apns-id", id)]
            server.respond(streamID: stream, response: HTTPResponse(status: index < 10 ? 200 : 400, headers: headers))
            shuttle(client, server)
            #expect(client.responses[stream]?.headers == headers, "the client decodes the fields as given")
            sizes.append(server.encoderTableSize)
        }
        let idEntry = 32 + 7 + 36
        let contentTypeEntry = 32 + 12 + 16
        #expect(sizes.prefix(10).allSatisfy { $0 == idEntry }, "only the first apns-id is added: \(sizes)")
        #expect(sizes.suffix(10).allSatisfy { $0 == idEntry + contentTypeEntry }, "content-type once: \(sizes)")
    }

    @Test func responsesOfDifferentShapesEachCarryExactlyTheirOwnHeaders() {
        let client = InMemoryClient()
        let server = HTTP2ServerSessionTests.makeServer()
        let answers: [HTTPResponse] = [
            HTTPResponse(status: 200, headers: [HeaderField("apns-id", "A"), HeaderField("apns-unique-id", "U")]),
            HTTPResponse(
                status: 400, headers: [HeaderField("Content-Type", "application/json"), HeaderField("apns-id", "B")],
                body: Array(#"{"reason":"BadDeviceToken"}"#.utf8)),
            HTTPResponse(status: 200, headers: [HeaderField("apns-id", "C")]),
            HTTPResponse(status: 503),
            HTTPResponse(status: 200, headers: [HeaderField("X-Long", String(repeating: "v", count: 3000))]),
            HTTPResponse(status: 410, headers: [HeaderField("apns-id", "")], body: Array("{}".utf8)),
        ]
        for answer in answers {
            let stream = client.request(path: "/a", chunks: nil)
            shuttle(client, server)
            server.respond(streamID: stream, response: answer)
            shuttle(client, server)
            var expected = answer.headers.map { HeaderField($0.name.lowercased(), $0.value) }
            if !answer.body.isEmpty { expected.append(HeaderField("content-length", String(answer.body.count))) }
            #expect(client.responses[stream]?.status == answer.status)
            #expect(client.responses[stream]?.headers == expected)
            #expect(client.responses[stream]?.body == answer.body)
        }
    }
}

extension SessionReuseTests {
    /// A response body waits on its stream's state until nghttp2 has read it: one longer than a DATA frame arrives
    /// whole over several frames, and the streams that reuse that state carry only their own bodies (or none), also
    /// after a stream whose body the client reset before reading it.
    @Test func aBodyLongerThanAFrameArrivesWholeAndLaterStreamsCarryOnlyTheirOwn() {
        let client = InMemoryClient()
        let server = HTTP2ServerSessionTests.makeServer()
        let long = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let answers: [(body: [UInt8], resetFirst: Bool)] = [
            (long, false), (Array(#"{"reason":"BadDeviceToken"}"#.utf8), false), ([], false), (long, true),
            (Array("{}".utf8), false), ([], false),
        ]
        for answer in answers {
            let stream = client.request(path: "/a", chunks: [Array("x".utf8)])
            shuttle(client, server)
            server.respond(streamID: stream, response: HTTPResponse(status: 400, body: answer.body))
            // The client's RST_STREAM reaches the server before the server's output is drained.
            if answer.resetFirst { client.reset(streamID: stream) }
            shuttle(client, server)
            if answer.resetFirst {
                #expect(client.responses[stream]?.body.isEmpty == true, "a stream reset before its body was read")
                continue
            }
            #expect(client.responses[stream]?.status == 400)
            #expect(client.responses[stream]?.body == answer.body)
            #expect(client.responses[stream]?.ended == true)
            if answer.body.count > 16_384 { #expect((client.responses[stream]?.dataFrames ?? 0) > 1) }
        }
        #expect(server.openStreamCount == 0)
    }
}

/// The reusable header block: each fill gives exactly its pairs, in order, names lower-cased when asked.
@Suite struct NameValueBufferTests {
    static func pairs(_ buffer: inout NameValueBuffer) -> [String] {
        buffer.withNameValues { nva in
            nva.map { entry in
                String(decoding: UnsafeBufferPointer(start: entry.name, count: entry.namelen), as: UTF8.self) + "="
                    + String(decoding: UnsafeBufferPointer(start: entry.value, count: entry.valuelen), as: UTF8.self)
            }
        }
    }

    @Test func eachFillAfterRemoveAllHoldsOnlyItsOwnPairs() {
        var buffer = NameValueBuffer()
        #expect(Self.pairs(&buffer) == [])
        buffer.append(name: ":status", decimal: 200)
        buffer.append(lowercasingName: "Apns-ID", value: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        buffer.append(lowercasingName: "ÄPNS-Ü", value: "ünïcødé")
        buffer.append(name: "content-length", decimal: 0)
        buffer.append(name: "x-big", decimal: 1_234_567_890)
        buffer.append(name: "", value: "")
        #expect(buffer.count == 6)
        #expect(Self.pairs(&buffer) == [
            ":status=200", "apns-id=E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "äpns-ü=ünïcødé", "content-length=0",
            "x-big=1234567890", "=",
        ])
        #expect(Self.pairs(&buffer).count == 6, "reading the entries leaves the pairs in place")

        buffer.removeAll()
        #expect(buffer.count == 0)
        #expect(Self.pairs(&buffer) == [])
        buffer.append(name: ":status", decimal: 410)
        buffer.append(name: "x-negative", decimal: -5)
        #expect(Self.pairs(&buffer) == [":status=410", "x-negative=-5"])

        buffer.removeAll()
        buffer.append(lowercasingName: String(repeating: "N", count: 500), value: String(repeating: "v", count: 5000))
        #expect(Self.pairs(&buffer) == [String(repeating: "n", count: 500) + "=" + String(repeating: "v", count: 5000)])
    }
}

extension NameValueBufferTests {
    @Test func aPairAddedUnindexedCarriesNghttp2sNoIndexFlagAndTheOthersNone() {
        let buffer = NameValueBuffer()
        buffer.append(name: ":status", decimal: 200)
        buffer.append(lowercasingName: "apns-id", value: "A", indexed: false)
        buffer.append(lowercasingName: "content-type", value: "application/json")
        buffer.append(name: "x", value: "y")
        let flags = buffer.withNameValues { $0.map(\.flags) }
        let none = UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)
        #expect(flags == [none, UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue), none, none])
        buffer.removeAll()
        buffer.append(lowercasingName: "apns-id", value: "B")
        #expect(buffer.withNameValues { $0.map(\.flags) } == [none])
    }
}

/// Field names are told apart by their bytes exactly as by their text.
@Suite struct RequestFieldNameTests {
    static func kind(_ name: String) -> RequestFieldName {
        Array(name.utf8).withUnsafeBufferPointer { RequestFieldName($0) }
    }

    @Test func pseudoHeadersHostAndKnownNamesAreRecognisedAndNothingElse() {
        #expect(Self.kind(":method") == .method)
        #expect(Self.kind(":path") == .path)
        #expect(Self.kind(":scheme") == .scheme)
        #expect(Self.kind(":authority") == .authority)
        #expect(Self.kind("host") == .host)
        for name in ["apns-id", "apns-expiration", "apns-priority", "apns-topic", "apns-push-type", "apns-collapse-id",
                     "authorization", "content-type", "content-length", "user-agent", "accept", "accept-encoding", "te"] {
            #expect(Self.kind(name) == .known(name))
        }
        for name in ["", ":protocol", ":Path", "Host", "apns-idx", "apns-i", "apns-topiC", "x-apns-id", "hos",
                     "authorizatioN", String(repeating: "a", count: 16), String(repeating: "a", count: 300)] {
            #expect(Self.kind(name) == .other)
        }
    }
}

@Suite struct RecentPathTests {
    @Test func aOneValueMemoGivesEveryValueAsDecoded() {
        var recent = RecentHeaderValues(capacity: 1)
        let paths = ["/3/device/" + String(repeating: "a", count: 64), "/3/device/" + String(repeating: "a", count: 64),
                     "/3/device/" + String(repeating: "b", count: 64), "/3/device/" + String(repeating: "a", count: 64), "/s"]
        for path in paths {
            #expect(RecentHeaderValuesTests.decode(&recent, Array(path.utf8)) == path)
        }
    }
}
