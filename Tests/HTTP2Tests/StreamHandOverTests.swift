import HTTPContract
import Testing
@testable import HTTP2

/// A completed stream's request is built when the session hands it over (`forEachEvent`), after nghttp2 returns:
/// what arrived later in the same read must not change it, and its stream object must not be reused meanwhile.
@Suite struct StreamHandOverTests {
    @Test func aStreamClosedAndFollowedByAnotherInTheSameReadStillHandsOverItsOwnRequest() {
        let client = InMemoryClient()
        let server = HTTP2ServerSessionTests.makeServer()
        shuttle(client, server)
        _ = server.takeEvents()
        let first = client.request(path: "/3/device/first", headers: [("apns-topic", "com.example.first")])
        let firstBytes = client.output()
        client.reset(streamID: first)
        let second = client.request(path: "/3/device/second", headers: [("apns-topic", "com.example.second")])
        // One read: HEADERS(END_STREAM) of the first, its RST_STREAM (the stream closes, its object is free), then
        // the second stream's HEADERS (which takes a free stream object).
        let bytes = firstBytes + client.output()
        #expect(bytes.withUnsafeBytes { server.receive($0) })
        let requests = HTTP2ServerSessionTests.requests(server.takeEvents())
        #expect(requests.map(\.streamID) == [first, second])
        #expect(requests.map(\.path) == ["/3/device/first", "/3/device/second"])
        #expect(requests.map { $0.value("apns-topic") } == ["com.example.first", "com.example.second"])
    }

    @Test func aRequestAnsweredEarlyKeepsTheBodyLengthAndFieldsItHadWhenDispatched() {
        var settings = TransportSettings()
        settings.requestBodyLimit = 8
        let client = InMemoryClient()
        let server = HTTP2ServerSessionTests.makeServer(settings: settings)
        shuttle(client, server)
        _ = server.takeEvents()
        client.request(path: "/big", chunks: [[UInt8](repeating: 1, count: 10), [UInt8](repeating: 2, count: 10)])
        let bytes = client.output()
        #expect(bytes.withUnsafeBytes { server.receive($0) })
        let requests = HTTP2ServerSessionTests.requests(server.takeEvents())
        #expect(requests.count == 1)
        #expect(requests.first?.body == [UInt8](repeating: 1, count: 8))
        #expect(requests.first?.bodyLength == 10, "counted when the first chunk passed the limit, not later chunks")
    }
}
