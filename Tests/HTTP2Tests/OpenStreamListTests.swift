import HTTPContract
import CNative
import Testing
@testable import HTTP2

/// The session's open streams are a list linked through their states (`HTTP2ServerSession.openStreams`): streams
/// that close in any order leave it, and what remains is what the timeouts look at and reset.
@Suite struct OpenStreamListTests {
    @Test func streamsClosingInAnyOrderLeaveTheListAndTheRestAreReset() {
        let client = InMemoryClient()
        let server = HTTP2ServerSessionTests.makeServer()
        let streams = (0..<6).map { client.openRequest(path: "/3/device/\($0)") }
        shuttle(client, server)
        #expect(server.openStreamCount == 6)
        #expect(server.oldestIncompleteStreamStart != nil)
        // The newest, the oldest and one between close; three remain.
        for streamID in [streams[5], streams[0], streams[2]] { client.reset(streamID: streamID) }
        shuttle(client, server)
        #expect(server.openStreamCount == 3)
        // A completed request on a new stream comes and goes without touching the three.
        client.request(path: "/3/device/complete", chunks: [[1, 2, 3]])
        var completed: [HTTPRequest] = []
        shuttle(client, server) { event in
            if case .request(let request) = event { completed.append(request) }
        }
        for request in completed { server.respond(streamID: request.streamID, response: HTTPResponse(status: 200)) }
        shuttle(client, server)
        #expect(completed.map(\.path) == ["/3/device/complete"])
        #expect(server.openStreamCount == 3)
        #expect(server.resetIncompleteStreams(startedBefore: .max) == 3)
        shuttle(client, server)
        #expect(server.openStreamCount == 0)
        #expect(server.oldestIncompleteStreamStart == nil)
        for streamID in [streams[1], streams[3], streams[4]] {
            #expect(client.responses[streamID]?.resetCode == NGHTTP2_CANCEL.rawValue)
        }
    }
}
