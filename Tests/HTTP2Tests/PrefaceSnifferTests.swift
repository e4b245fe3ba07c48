import Testing
@testable import HTTP2

@Suite struct PrefaceSnifferTests {
    @Test(arguments: [
        ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", PrefaceSniffer.Verdict.http2),
        ("PRI * HTTP/2.0\r\n", .needMoreBytes),
        ("POST /3/device/x HTTP/1.1\r\nHost: x\r\n\r\n", .http1(method: "POST", path: "/3/device/x")),
        ("GET / HTTP/1.0\r\n", .http1(method: "GET", path: "/")),
        ("POST /3/device/x HTTP/1.1", .needMoreBytes),
        ("\u{16}\u{03}\u{01}garbage\n", .unknown),
        ("hello world\n", .unknown),
    ])
    func classifiesTheFirstBytes(bytes: String, verdict: PrefaceSniffer.Verdict) {
        var sniffer = PrefaceSniffer()
        #expect(sniffer.feed(Array(bytes.utf8)) == verdict)
    }

    @Test func aRequestLineSplitAcrossReadsIsRecognised() {
        var sniffer = PrefaceSniffer()
        #expect(sniffer.feed(Array("POS".utf8)) == .needMoreBytes)
        #expect(sniffer.feed(Array("T /3/device/x HT".utf8)) == .needMoreBytes)
        #expect(sniffer.feed(Array("TP/1.1\r\n".utf8)) == .http1(method: "POST", path: "/3/device/x"))
    }

    @Test func theGoAwayDebugDataIsAPNsWording() {
        #expect(String(decoding: PrefaceSniffer.http1DebugData(method: "POST", path: "/3/device/x"), as: UTF8.self)
                == "Unexpected HTTP/1.x request: POST /3/device/x")
    }
}
