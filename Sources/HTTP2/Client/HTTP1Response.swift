import Foundation

/// An HTTP/1.1 response as `HTTP1Exchange` reads it: status, header fields (names lower-cased) and the body.
public struct HTTP1Response: Sendable, Equatable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func value(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    public static func == (left: HTTP1Response, right: HTTP1Response) -> Bool {
        left.status == right.status && left.body == right.body
            && left.headers.elementsEqual(right.headers) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// Reads one HTTP/1.1 response from bytes as they arrive (RFC 9112): the status line, the header fields, then
/// the body framed by `Transfer-Encoding: chunked`, by `Content-Length`, or by the end of the connection. Pure:
/// `HTTP1Exchange` feeds it what the socket read; tests feed it byte strings.
public struct HTTP1ResponseParser {
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case tooLarge(Int)

        public var description: String {
            switch self {
            case .malformed(let detail): return "malformed HTTP/1.1 response: \(detail)"
            case .tooLarge(let limit): return "HTTP/1.1 response larger than \(limit) bytes"
            }
        }
    }

    private enum Framing { case chunked, length(Int), untilClose }

    private var buffer: [UInt8] = []
    private var head: (status: Int, headers: [(name: String, value: String)], framing: Framing, bodyStart: Int)?
    /// The most bytes one response may have (head and body).
    public let limit: Int

    public init(limit: Int = 256 << 20) { self.limit = limit }

    /// Appends bytes; returns the response once it is complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(ParseError) -> HTTP1Response? {
        buffer.append(contentsOf: bytes)
        guard buffer.count <= limit else { throw .tooLarge(limit) }
        while head == nil {
            guard let parsed = try Self.parseHead(buffer) else { return nil }
            // 1xx: an interim answer; the final one follows (the admin API sends none).
            if parsed.status < 200 { buffer.removeFirst(parsed.bodyStart) } else { head = parsed }
        }
        guard let head else { return nil }
        switch head.framing {
        case .length(let length):
            guard buffer.count - head.bodyStart >= length else { return nil }
            return HTTP1Response(status: head.status, headers: head.headers,
                                 body: Array(buffer[head.bodyStart..<head.bodyStart + length]))
        case .chunked:
            // Decoded only once the bytes end as a chunked body ends (last chunk, no trailers): a body arriving
            // in many reads is not decoded again per read.
            guard buffer.count - head.bodyStart >= 5, buffer.suffix(5).elementsEqual([48, 13, 10, 13, 10]),
                  let body = try Self.dechunk(buffer[head.bodyStart...]) else { return nil }
            return HTTP1Response(status: head.status, headers: head.headers, body: body)
        case .untilClose:
            return nil
        }
    }

    /// The connection ended: the response if it is complete (a body framed by the close is complete now).
    public func finish() throws(ParseError) -> HTTP1Response {
        guard let head else { throw .malformed(buffer.isEmpty ? "no response" : "the connection closed inside the head") }
        switch head.framing {
        case .untilClose:
            return HTTP1Response(status: head.status, headers: head.headers, body: Array(buffer[head.bodyStart...]))
        case .chunked:
            // A chunked body with trailer fields ends in a way `feed` does not look for.
            if let body = try Self.dechunk(buffer[head.bodyStart...]) {
                return HTTP1Response(status: head.status, headers: head.headers, body: body)
            }
        case .length:
            break
        }
        throw .malformed("the connection closed inside the body")
    }

    private static func parseHead(
        _ bytes: [UInt8]
    ) throws(ParseError) -> (status: Int, headers: [(name: String, value: String)], framing: Framing, bodyStart: Int)? {
        guard let end = firstIndex(of: [13, 10, 13, 10], in: bytes[...]) else { return nil }
        let lines = bytes[..<end].split(separator: 10, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
        }
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]),
              (100...999).contains(status) else {
            throw .malformed("status line \(lines[0].prefix(80).debugDescription)")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("header line \(line.prefix(80).debugDescription)") }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let bodyStart = end + 4
        if status < 200 || status == 204 || status == 304 { return (status, headers, .length(0), bodyStart) }
        if let coding = headers.last(where: { $0.name == "transfer-encoding" })?.value,
           coding.lowercased().hasSuffix("chunked") {
            return (status, headers, .chunked, bodyStart)
        }
        if let length = headers.first(where: { $0.name == "content-length" })?.value {
            guard let count = Int(length), count >= 0 else { throw .malformed("content-length \(length.debugDescription)") }
            return (status, headers, .length(count), bodyStart)
        }
        return (status, headers, .untilClose, bodyStart)
    }

    /// The body of a complete chunked encoding, or nil while more bytes are needed. Trailers are skipped.
    private static func dechunk(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> [UInt8]? {
        var body: [UInt8] = []
        var position = bytes.startIndex
        while true {
            guard let lineEnd = firstIndex(of: [13, 10], in: bytes[position...]) else { return nil }
            let sizeText = String(decoding: bytes[position..<lineEnd], as: UTF8.self)
            let sizeDigits = sizeText.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(sizeDigits.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw .malformed("chunk size \(sizeText.prefix(40).debugDescription)")
            }
            let dataStart = lineEnd + 2
            if size == 0 {
                // Trailer fields, then an empty line.
                var trailer = dataStart
                while true {
                    guard let end = firstIndex(of: [13, 10], in: bytes[trailer...]) else { return nil }
                    if end == trailer { return body }
                    trailer = end + 2
                }
            }
            guard bytes.endIndex - dataStart >= size + 2 else { return nil }
            body.append(contentsOf: bytes[dataStart..<dataStart + size])
            guard bytes[dataStart + size] == 13, bytes[dataStart + size + 1] == 10 else {
                throw .malformed("chunk of \(size) bytes not followed by CRLF")
            }
            position = dataStart + size + 2
        }
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        var index = bytes.startIndex
        while index <= bytes.endIndex - pattern.count {
            if bytes[index] == pattern[0] && bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
