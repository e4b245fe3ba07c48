import HTTPContract
import Testing

@Suite("HTTP contract: what the transport hands the application")
struct HTTPContractTests {
    @Test("header lookups keep arrival order and duplicates; the first value wins for value(_:)")
    func headerOrder() {
        let request = HTTPRequest(
            method: "POST", path: "/3/device/ab",
            headers: [HeaderField("apns-topic", "a"), HeaderField("apns-priority", "10"), HeaderField("apns-topic", "b")])
        #expect(request.values("apns-topic") == ["a", "b"])
        #expect(request.value("apns-topic") == "a")
        #expect(request.value("apns-id") == nil)
        #expect(request.bodyLength == 0)
    }

    @Test("a connection carries its listener's label untouched; the transport gives it no meaning")
    func listenerLabel() {
        let connection = ConnectionInfo(id: 3, remoteAddress: "127.0.0.1:1", localPort: 2197, tls: nil, listenerLabel: "blue")
        #expect(connection.listenerLabel == "blue")
        #expect(ConnectionInfo.inMemory.listenerLabel == "development")
    }

    @Test("the first send on a response sink reaches the connection with its actions")
    func sinkDelivers() {
        let received = Locked<[(Int, [ConnectionAction])]>([])
        let sink = ResponseSink { response, actions in received.withLock { $0.append((response.status, actions)) } }
        sink.send(HTTPResponse(status: 403), actions: [.setMaxConcurrentStreams(1)])
        #expect(received.withLock { $0.map(\.0) } == [403])
        #expect(received.withLock { $0.first?.1 } == [.setMaxConcurrentStreams(1)])
    }

    @Test("a transport's stream sink passes on the first send only, with its connection and stream")
    func streamSinkTakesTheFirstSend() {
        final class Target: ResponseTarget {
            let received = Locked<[(Int, [ConnectionAction], UInt64, Int32)]>([])
            func deliver(_ response: HTTPResponse, actions: [ConnectionAction], connectionID: UInt64, streamID: Int32) {
                received.withLock { $0.append((response.status, actions, connectionID, streamID)) }
            }
        }
        let target = Target()
        let sink = ResponseSink(target: target, connectionID: 7, streamID: 5)
        sink.send(HTTPResponse(status: 410), actions: [.resetStream(errorCode: 8)])
        sink.send(HTTPResponse(status: 200))
        let received = target.received.withLock { $0 }
        #expect(received.map(\.0) == [410])
        #expect(received.first?.1 == [.resetStream(errorCode: 8)])
        #expect(received.first?.2 == 7 && received.first?.3 == 5)
    }
}
