/// Decides, from a connection's first bytes, whether the client speaks HTTP/2 (the 24-byte client preface) or
/// HTTP/1.x. APNs answers an HTTP/1.x request with a GOAWAY frame (PROTOCOL_ERROR) whose debug data is
/// `Unexpected HTTP/1.x request: <METHOD> <PATH>` — the wording of Netty's HTTP/2 handler, which APNs' front end
/// evidently runs. Source: A-CONN and A-SEND [OBS] (pastebin capture, two repository notes).
struct PrefaceSniffer {
    enum Verdict: Equatable {
        case needMoreBytes
        case http2
        case http1(method: String, path: String)
        /// Neither: hand the bytes to nghttp2, which rejects a bad preface itself.
        case unknown
    }

    static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    /// How far to look for the end of an HTTP/1.x request line before giving up.
    static let requestLineLimit = 8192

    private(set) var buffered: [UInt8] = []

    /// Adds bytes and says what the connection is, once that is known.
    mutating func feed(_ bytes: some Collection<UInt8>) -> Verdict {
        buffered.append(contentsOf: bytes)
        return classify(buffered)
    }

    static func looksLikePrefacePrefix(_ bytes: [UInt8]) -> Bool {
        zip(bytes, clientPreface).allSatisfy { $0 == $1 }
    }

    func classify(_ bytes: [UInt8]) -> Verdict {
        if Self.looksLikePrefacePrefix(bytes) {
            return bytes.count >= Self.clientPreface.count ? .http2 : .needMoreBytes
        }
        guard let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            return bytes.count >= Self.requestLineLimit ? .unknown : .needMoreBytes
        }
        var line = bytes[..<lineEnd]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        guard parts.count == 3,
              parts[2].starts(with: Array("HTTP/1.".utf8)),
              parts[0].allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
        else { return .unknown }
        return .http1(method: String(decoding: parts[0], as: UTF8.self), path: String(decoding: parts[1], as: UTF8.self))
    }

    /// The GOAWAY debug data APNs sends for an HTTP/1.x request.
    static func http1DebugData(method: String, path: String) -> [UInt8] {
        Array("Unexpected HTTP/1.x request: \(method) \(path)".utf8)
    }
}
