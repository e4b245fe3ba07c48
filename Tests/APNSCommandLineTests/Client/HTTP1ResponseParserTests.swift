@testable import HTTP2
import Testing
@testable import APNSCommandLine

/// The admin API's command-line client reads HTTP/1.1 answers with `HTTP1ResponseParser`: every framing RFC 9112
/// allows (length, chunked with extensions and trailers, close-delimited), in any split across reads.
@Suite struct HTTP1ResponseParserTests {
    static let cases: [(name: String, wire: String, status: Int, body: String, contentType: String?)] = [
        ("content-length", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}",
         200, "{\"ok\":true}", "application/json"),
        ("empty body by length", "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", 404, "", nil),
        ("204 has no body", "HTTP/1.1 204 No Content\r\nX-Other: 1\r\n\r\n", 204, "", nil),
        ("chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
         200, "hello world", nil),
        ("chunk extension and upper-case hex", "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nA;name=x\r\n0123456789\r\n0\r\n\r\n",
         200, "0123456789", nil),
        ("header names any case, value spaces trimmed", "HTTP/1.1 201 Created\r\nCONTENT-TYPE:  text/plain \t\r\nContent-Length: 2\r\n\r\nhi",
         201, "hi", "text/plain"),
        ("100 Continue before the answer", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx",
         200, "x", nil),
    ]

    @Test(arguments: cases.map(\.name))
    func readsEveryFramingWhole(name: String) throws {
        let row = try #require(Self.cases.first { $0.name == name })
        var parser = HTTP1ResponseParser()
        let response = try #require(try parser.feed(Array(row.wire.utf8)))
        #expect(response.status == row.status)
        #expect(String(decoding: response.body, as: UTF8.self) == row.body)
        #expect(response.value("content-type") == row.contentType)
    }

    @Test(arguments: cases.map(\.name))
    func readsEveryFramingByteByByte(name: String) throws {
        let row = try #require(Self.cases.first { $0.name == name })
        let bytes = Array(row.wire.utf8)
        var parser = HTTP1ResponseParser()
        var answer: HTTP1Response?
        for (index, byte) in bytes.enumerated() {
            answer = try parser.feed([byte])
            if answer != nil {
                #expect(index == bytes.count - 1, "complete only with its last byte")
                break
            }
        }
        let response = try #require(answer)
        #expect(response.status == row.status)
        #expect(String(decoding: response.body, as: UTF8.self) == row.body)
    }

    @Test func aBodyWithoutLengthEndsWithTheConnection() throws {
        var parser = HTTP1ResponseParser()
        #expect(try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\npart one, ".utf8)) == nil)
        #expect(try parser.feed(Array("part two".utf8)) == nil)
        let response = try parser.finish()
        #expect(String(decoding: response.body, as: UTF8.self) == "part one, part two")
    }

    @Test func chunkedTrailersAreSkippedWhenTheConnectionEnds() throws {
        var parser = HTTP1ResponseParser()
        let wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-Checksum: 1\r\n\r\n"
        let early = try parser.feed(Array(wire.utf8))
        let response = try early ?? parser.finish()
        #expect(String(decoding: response.body, as: UTF8.self) == "abc")
    }

    @Test(arguments: [
        ("", "no response"),
        ("HTTP/1.1 200 OK\r\nContent-Le", "inside the head"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "inside the body"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", "inside the body"),
    ])
    func aConnectionClosedEarlyIsAnError(wire: String, detail: String) throws {
        var parser = HTTP1ResponseParser()
        #expect(try parser.feed(Array(wire.utf8)) == nil)
        #expect {
            try parser.finish()
        } throws: { error in
            "\(error)".contains(detail)
        }
    }

    @Test(arguments: [
        "SSH-2.0-OpenSSH\r\n\r\n",
        "HTTP/1.1 abc OK\r\n\r\n",
        "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabcd0\r\n\r\n",
    ])
    func refusesWhatIsNotHTTP1(wire: String) {
        var parser = HTTP1ResponseParser()
        #expect(throws: HTTP1ResponseParser.ParseError.self) {
            _ = try parser.feed(Array(wire.utf8))
            _ = try parser.finish()
        }
    }

    @Test func refusesAnAnswerOverItsLimit() {
        var parser = HTTP1ResponseParser(limit: 64)
        #expect(throws: HTTP1ResponseParser.ParseError.tooLarge(64)) {
            _ = try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".utf8) + [UInt8](repeating: 65, count: 100))
        }
    }

    @Test func requestCarriesHostCloseFieldsAndLength() {
        let bytes = HTTP1Exchange.requestBytes(
            "POST", "/api/config/faults", host: "::1", port: 9000,
            headers: [(name: "Content-Type", value: "application/json")], body: Array("{}".utf8))
        #expect(String(decoding: bytes, as: UTF8.self) == "POST /api/config/faults HTTP/1.1\r\nHost: [::1]:9000\r\n"
            + "Connection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
    }
}
