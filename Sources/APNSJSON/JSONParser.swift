/// The one JSON parser of the project: strict RFC 8259 over UTF-8 bytes, to a `JSONValue` that keeps key order,
/// duplicate keys and number literals.
///
/// Policy: what the device's `JSONDecoder` (swift-foundation, shared by iOS 17+ and Swift 6 on Linux) accepts and
/// refuses, as measured on this toolchain:
/// - one value, optionally surrounded by whitespace; any value may be the top level (fragments);
/// - duplicate keys are kept in order; lookups take the first, as `JSONDecoder` does;
/// - strings must be valid UTF-8 and contain no unescaped control character; `\u` escapes must form Unicode
///   scalars: a lone or reversed surrogate (`"\ud83d"`, `"\ude00"`) is refused, as `JSONDecoder` refuses it;
/// - numbers follow the RFC grammar (no leading zeros, no `NaN`, no `1.`); their text is kept, so range is the
///   reader's question (`JSONDecoder` refuses `1e400` for a `Double`; `CodableShape` checks that);
/// - nesting deeper than `maximumDepth` (512, `JSONDecoder`'s limit too) is refused rather than risking the stack.
/// Two deliberate differences, both refusing what `JSONDecoder` on Swift 6 also reads: trailing commas (`[1,]`,
/// `{"a":1,}`; RFC 8259 has none, and the mock has always answered such a body as not JSON), and a byte-order mark
/// or UTF-16/32 input (push payloads are UTF-8).
public struct JSONParser {
    /// Nesting deeper than this is refused.
    public static let maximumDepth = 512

    /// The input, read in place (no bounds-checked array reads or copies per byte; valid only during `parse`).
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Room reserved for an object's members or an array's elements when the first arrives: the objects of a
    /// push payload (`aps`, `alert`, a content state) mostly have a few members, so one allocation each instead
    /// of an array growing 1, 2, 4. Four, because that is the capacity growth gave an object of three or four
    /// members (the simulated device keeps each activity's content state: no more memory per token).
    static let initialMemberCapacity = 4

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one JSON value that must fill the whole input (surrounding whitespace allowed).
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let parsed: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            do throws(JSONParseError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try parsed.get()
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected data after the JSON value") }
        return value
    }

    /// Parses UTF-8 text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private func failure(_ reason: String) -> JSONParseError {
        JSONParseError(offset: index, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth)") }
        guard let byte = current else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            let shown = byte < 0x80 ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
            throw failure("unexpected character \(shown)")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONParseError) {
        for expected in literal.utf8 {
            guard current == expected else { throw failure("invalid literal, expected '\(literal)'") }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        members.reserveCapacity(Self.initialMemberCapacity)
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after key") }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw failure("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        elements.reserveCapacity(Self.initialMemberCapacity)
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw failure("expected ',' or ']' in array")
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as the literal text.
    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw failure("expected a digit") }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, isDigit(digit) else { throw failure("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, isDigit(digit) else { throw failure("expected a digit in the exponent") }
            skipDigits()
        }
        if let next = current, isDigit(next) { throw failure("leading zero in a number") }
        return Self.asciiText(UnsafeBufferPointer(rebasing: bytes[start..<index]))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }

    /// A string: runs of raw bytes are validated as UTF-8 in one step; escapes are decoded one by one.
    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        var runStart = index
        // Whether the run so far is ASCII (the usual string): then it needs no UTF-8 validation.
        var runIsASCII = true
        var text: String?
        while true {
            skipPlainASCII()
            guard let byte = current else { throw failure("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                let run = try validatedRun(from: runStart, isASCII: runIsASCII)
                index += 1
                guard var built = text else { return run }
                built += run
                return built
            case UInt8(ascii: "\\"):
                let run = try validatedRun(from: runStart, isASCII: runIsASCII)
                index += 1
                let scalar = try parseEscape()
                var built = (text ?? "") + run
                built.unicodeScalars.append(scalar)
                text = built
                runStart = index
                runIsASCII = true
            case 0x00..<0x20:
                throw failure("control character in string")
            default:
                if byte >= 0x80 { runIsASCII = false }
                index += 1
            }
        }
    }

    /// Moves past the bytes of a string that need no look, eight at a time: ASCII other than a quote, a backslash
    /// or a control character (the word tests of `JSONWriter.escapeMask`, plus each byte's high bit; the lowest
    /// flagged byte is exact). Stops at the first other byte, or where fewer than eight are left.
    private mutating func skipPlainASCII() {
        guard let base = bytes.baseAddress else { return }
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let flagged = JSONWriter.escapeMask(word) | (word & 0x8080_8080_8080_8080)
            if flagged != 0 {
                index += flagged.trailingZeroBitCount &>> 3
                return
            }
            index += 8
        }
    }

    private func validatedRun(from start: Int, isASCII: Bool) throws(JSONParseError) -> String {
        if start == index { return "" }
        // ASCII (nearly every run) needs no validation; `String(validating:)` over a slice is an unspecialized
        // generic call (type metadata looked up on every string of every payload).
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if isASCII { return Self.asciiText(slice) }
        guard let run = String(validating: slice, as: UTF8.self) else {
            throw JSONParseError(offset: start, reason: "invalid UTF-8 in string")
        }
        return run
    }

    /// ASCII bytes as a string, copied straight into the string's storage (a small string up to 15 bytes, as
    /// nearly every key and value of a push payload is). `String(decoding:as:)` checked the bytes for ASCII again
    /// and went through its repairing path.
    private static func asciiText(_ ascii: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: ascii.count) { storage in
            _ = storage.initialize(fromContentsOf: ascii)
            return ascii.count
        }
    }

    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        guard let byte = current else { throw failure("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try parseHexQuad()
            if (0xD800..<0xDC00).contains(unit) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure("lone high surrogate \\u\(String(unit, radix: 16))") }
                index += 2
                let low = try parseHexQuad()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw failure("high surrogate not followed by a low surrogate")
                }
                let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else { throw failure("invalid surrogate pair") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(UInt32(unit)) else {
                throw failure("lone low surrogate \\u\(String(unit, radix: 16))")
            }
            return scalar
        default:
            throw failure("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func parseHexQuad() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexDigit(byte) else { throw failure("invalid \\u escape") }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Why bytes are not JSON, with the byte offset where parsing stopped.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }
}
