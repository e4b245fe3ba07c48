import HTTPContract
import CNative
import Testing
@testable import HTTP2

/// Connection actions used by fault injection, on the nghttp2 session in memory: GOAWAY naming a chosen
/// last-stream-id, and black-holed streams that are forgotten once the client resets them.
@Suite struct FaultActionSessionTests {
    static let debug = Array(#"{"reason":"Shutdown"}"#.utf8)

    @Test func aGoAwayBeforeTheAnswerNamesTheGivenLastStream() {
        let client = InMemoryClient()
        let server = HTTP2ServerSessionTests.makeServer()
        let first = client.request(path: "/a", chunks: nil)
        shuttle(client, server)
        server.respond(streamID: first, response: HTTPResponse(status: 200))
        shuttle(client, server)
        let second = client.request(path: "/b", chunks: nil)
        shuttle(client, server)
        server.apply(.goAwayNaming(lastStreamID: first, errorCode: 0, debugData: Self.debug, beforeResponse: true), streamID: second)
        shuttle(client, server)
        #expect(client.goAways == [.init(lastStreamID: first, errorCode: 0, debugData: Self.debug)])
        #expect(client.responses[second]?.status == nil, "the stream above last-stream-id gets no answer")
    }

    @Test func aGoAwayAfterTheAnswerWithALastStreamIDFollowsTheAnswer() {
        let client = InMemoryClient()
        let server = HTTP2ServerSessionTests.makeServer()
        let stream = client.request(path: "/a", chunks: nil)
        shuttle(client, server)
        server.respond(streamID: stream, response: HTTPResponse(status: 503, body: Array(#"{"reason":"Shutdown"}"#.utf8)))
        server.apply(.goAwayNaming(lastStreamID: 0, errorCode: 0, debugData: Self.debug, beforeResponse: false), streamID: stream)
        shuttle(client, server)
        #expect(client.responses[stream]?.status == 503)
        #expect(client.goAways == [.init(lastStreamID: 0, errorCode: 0, debugData: Self.debug)])
        let goAwayIndex = client.frameTypesReceived.lastIndex(of: UInt8(NGHTTP2_GOAWAY.rawValue))!
        let dataIndex = client.frameTypesReceived.lastIndex(of: UInt8(NGHTTP2_DATA.rawValue))!
        #expect(dataIndex < goAwayIndex)
    }

    @Test func aBlackHoledStreamIsForgottenWhenTheClientResetsIt() {
        let client = InMemoryClient()
        let server = HTTP2ServerSessionTests.makeServer()
        var streams: [Int32] = []
        for index in 0..<5 { streams.append(client.request(path: "/\(index)", chunks: [Array("{}".utf8)])) }
        shuttle(client, server)
        #expect(server.openStreamCount == 5, "never answered: the streams stay open")
        for stream in streams { client.reset(streamID: stream) }
        shuttle(client, server)
        #expect(server.openStreamCount == 0)
    }
}
