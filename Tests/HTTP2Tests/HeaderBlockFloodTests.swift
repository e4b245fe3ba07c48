import HTTPContract
import CNative
import Testing
@testable import HTTP2

/// A header block of many one-byte HPACK static-table references (HEADERS + CONTINUATION) once cost quadratic time
/// on the event loop: the limit was checked only at dispatch and each field copied the stream's state. It is now
/// rejected as fields arrive, with O(1) work per field beyond the limit.
@Suite struct HeaderBlockFloodTests {
    /// Raw client bytes: preface, empty SETTINGS, then HEADERS (END_STREAM) carrying `:method POST`, `:scheme https`,
    /// `:path /`, `:authority localhost` and `fields` copies of static-table entry 19 (`accept`, empty value: 6 + 0 + 32 = 38 bytes each
    /// against the header-list limit), split over CONTINUATION frames of at most 16,384 bytes.
    static func floodBytes(fields: Int) -> [UInt8] {
        var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        bytes += frameHeader(length: 0, type: 0x4, flags: 0, streamID: 0)
        let authority: [UInt8] = [0x01, 0x09] + Array("localhost".utf8)
        let block: [UInt8] = [0x83, 0x87, 0x84] + authority + [UInt8](repeating: 0x93, count: fields)
        let maxFrame = 16_384
        var offset = 0
        var first = true
        while offset < block.count {
            let chunk = Array(block[offset..<min(offset + maxFrame, block.count)])
            offset += chunk.count
            let last = offset >= block.count
            let type: UInt8 = first ? 0x1 : 0x9
            var flags: UInt8 = last ? 0x4 : 0  // END_HEADERS
            if first { flags |= 0x1 }  // END_STREAM on HEADERS
            bytes += frameHeader(length: chunk.count, type: type, flags: flags, streamID: 1) + chunk
            first = false
        }
        return bytes
    }

    static func frameHeader(length: Int, type: UInt8, flags: UInt8, streamID: UInt32) -> [UInt8] {
        [UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags,
         UInt8(streamID >> 24 & 0x7f), UInt8(streamID >> 16 & 0xff), UInt8(streamID >> 8 & 0xff), UInt8(streamID & 0xff)]
    }

    @Test(arguments: [16_000, 64_000, 144_000])
    func aHugeBlockOfStaticReferencesIsRejectedWithBoundedDecodingWork(fields: Int) {
        let server = HTTP2ServerSessionTests.makeServer()
        let bytes = Self.floodBytes(fields: fields)
        let accepted = bytes.withUnsafeBytes { server.receive($0) }
        #expect(accepted, "the connection survives; only the stream is refused")
        let events = server.takeEvents()
        #expect(HTTP2ServerSessionTests.requests(events).isEmpty)
        guard case .headerListTooLarge(let streamID, let size)? = events.first else {
            Issue.record("expected headerListTooLarge, got \(events)")
            return
        }
        #expect(streamID == 1)
        #expect(size > 8000)
        // Every field reached the callback once (linear), but only those within the 8,000-byte limit were decoded
        // and kept: 8,000 / 32 bytes per field at most, whatever the block's size.
        #expect(server.headerFieldsSeen == fields + 4)
        #expect(server.headerFieldsKept <= 8000 / 32)
        // The answer is a 431 on that stream, and the session still serves others.
        server.respond(streamID: streamID, response: HTTPResponse(status: 431))
        var output: [UInt8] = []
        server.drainOutput(into: &output)
        #expect(server.fatalError == nil)
        #expect(!output.isEmpty)
    }
}
