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

extension HTTPContractTests {
    final class RecordingTarget: ResponseTarget {
        let received = Locked<[(Int, [ConnectionAction], Int32)]>([])
        func deliver(_ response: HTTPResponse, actions: [ConnectionAction], connectionID: UInt64, streamID: Int32) {
            received.withLock { $0.append((response.status, actions, streamID)) }
        }
    }

    @Test("a held answer is sent by sendHeld once, or replaced with its actions kept; nothing held sends nothing")
    func heldAnswers() {
        let target = RecordingTarget()
        let held = ResponseSink(target: target, connectionID: 1, streamID: 3)
        held.hold(HTTPResponse(status: 200, headers: [HeaderField("apns-id", "A")]), actions: [.setMaxConcurrentStreams(9)])
        #expect(held.heldHeader("apns-id") == "A" && held.heldHeader("x") == nil)
        held.sendHeld()
        held.sendHeld()
        held.send(HTTPResponse(status: 500))

        let replaced = ResponseSink(target: target, connectionID: 1, streamID: 5)
        replaced.hold(HTTPResponse(status: 200), actions: [.resetStream(errorCode: 2)])
        replaced.sendHeld(replacingResponseWith: HTTPResponse(status: 503))

        let empty = ResponseSink(target: target, connectionID: 1, streamID: 7)
        #expect(empty.heldHeader("apns-id") == nil)
        empty.sendHeld(replacingResponseWith: HTTPResponse(status: 503))
        empty.send(HTTPResponse(status: 200))

        let received = target.received.withLock { $0 }
        #expect(received.map(\.0) == [200, 503], "one answer each for 3 and 5, none for 7 (its first send was sendHeld)")
        #expect(received.map(\.2) == [3, 5])
        #expect(received.first?.1 == [.setMaxConcurrentStreams(9)] && received.last?.1 == [.resetStream(errorCode: 2)])
    }
}
