/// A strict JSON (RFC 8259) reader for configuration files that says *where* a file is wrong: line and column of a
/// trailing comma, a comment, a missing quote or the end of a cut-short file. It keeps each object key's position so
/// the key check can point at an unknown key. It does not build values; decoding stays with `Codable`.
struct StrictJSONReader {
    struct Position: Sendable, Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        var description: String { "\(line):\(column)" }
    }

    /// The shape of a JSON document with key positions.
    indirect enum Node: Sendable {
        case object([Member])
        case array([Node])
        case scalar
    }

    struct Member: Sendable {
        var key: String
        var position: Position
        var value: Node
    }

    struct SyntaxError: Error, Equatable {
        var position: Position
        var message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private static let maximumDepth = 256

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func read(_ bytes: [UInt8]) throws(SyntaxError) -> Node {
        var reader = StrictJSONReader(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3; reader.lineStart = 3 }
        reader.skipSpace()
        guard reader.index < bytes.count else { throw reader.error("the file is empty; write {} for all defaults") }
        let node = try reader.value(depth: 0)
        reader.skipSpace()
        if reader.index < bytes.count {
            throw reader.error("unexpected \(reader.describeCurrent()) after the end of the JSON document")
        }
        return node
    }

    private var position: Position { Position(line: line, column: index - lineStart + 1) }

    private func error(_ message: String, at position: Position? = nil) -> SyntaxError {
        SyntaxError(position: position ?? self.position, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"): index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private func truncated(_ what: String, openedAt start: Position) -> SyntaxError {
        error("the file ends inside \(what) opened at \(start) (is it cut short?)")
    }

    private mutating func value(depth: Int) throws(SyntaxError) -> Node {
        guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
        guard index < bytes.count else { throw error("unexpected end of file: a value is missing (is it cut short?)") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): _ = try string(); return .scalar
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(); return .scalar
        case UInt8(ascii: "t"): try literal("true"); return .scalar
        case UInt8(ascii: "f"): try literal("false"); return .scalar
        case UInt8(ascii: "n"): try literal("null"); return .scalar
        case UInt8(ascii: "/"): throw error("comments are not allowed in JSON")
        case UInt8(ascii: "'"): throw error("strings need double quotes (\"), not single quotes")
        case UInt8(ascii: "}"), UInt8(ascii: "]"): throw error("expected a value, found \(describeCurrent())")
        default: throw error("expected a value, found \(describeCurrent())")
        }
    }

    private mutating func object(depth: Int) throws(SyntaxError) -> Node {
        let start = position
        index += 1
        var members: [Member] = []
        var seen: [String: Position] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object([]) }
        while true {
            skipSpace()
            guard index < bytes.count else { throw truncated("an object", openedAt: start) }
            let keyPosition = position
            switch bytes[index] {
            case UInt8(ascii: "\""): break
            case UInt8(ascii: "}"):
                throw error("trailing comma before '}' (JSON allows no comma after the last member)")
            case UInt8(ascii: "/"): throw error("comments are not allowed in JSON")
            default: throw error("expected a key in double quotes, found \(describeCurrent())")
            }
            let key = try string()
            if let first = seen[key] {
                throw error("key \"\(key)\" appears twice in this object (first at \(first))", at: keyPosition)
            }
            seen[key] = keyPosition
            skipSpace()
            guard index < bytes.count else { throw truncated("an object", openedAt: start) }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after key \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            skipSpace()
            guard index < bytes.count else { throw truncated("an object", openedAt: start) }
            members.append(Member(key: key, position: keyPosition, value: try value(depth: depth + 1)))
            skipSpace()
            guard index < bytes.count else { throw truncated("an object", openedAt: start) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent())")
            }
        }
    }

    private mutating func array(depth: Int) throws(SyntaxError) -> Node {
        let start = position
        index += 1
        var elements: [Node] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array([]) }
        while true {
            skipSpace()
            guard index < bytes.count else { throw truncated("an array", openedAt: start) }
            if bytes[index] == UInt8(ascii: "]") {
                throw error("trailing comma before ']' (JSON allows no comma after the last element)")
            }
            elements.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw truncated("an array", openedAt: start) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']' in the array opened at \(start), found \(describeCurrent())")
            }
        }
    }

    private mutating func string() throws(SyntaxError) -> String {
        let start = position
        index += 1
        var scalars: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { break }
                let escaped = bytes[index + 1]
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    scalars.append(UInt8(ascii: " "))
                case UInt8(ascii: "u"):
                    let digits = bytes[min(bytes.count, index + 2)..<min(bytes.count, index + 6)]
                    guard digits.count == 4, digits.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0
                        || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0 || UInt8(ascii: "A")...UInt8(ascii: "F") ~= $0 })
                    else { throw error("\\u must be followed by four hex digits") }
                    scalars.append(UInt8(ascii: "?"))
                    index += 4
                default:
                    throw error("unknown escape \\\(Character(UnicodeScalar(escaped))) in a string")
                }
                index += 2
                continue
            case UInt8(ascii: "\n"):
                throw error("the string opened at \(start) has no closing quote on its line")
            case 0..<0x20:
                throw error("control character 0x\(String(byte, radix: 16)) in a string (escape it)")
            default:
                scalars.append(byte)
            }
            index += 1
        }
        throw truncated("a string", openedAt: start)
    }

    private mutating func number() throws(SyntaxError) {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ reader: inout StrictJSONReader) -> Int {
            var count = 0
            while reader.index < reader.bytes.count, UInt8(ascii: "0")...UInt8(ascii: "9") ~= reader.bytes[reader.index] {
                reader.index += 1
                count += 1
            }
            return count
        }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw error("a number needs digits after '-'") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw error("numbers may not have leading zeros", at: Position(line: line, column: integerStart - lineStart + 1))
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("a number needs digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("a number needs digits in its exponent") }
        }
    }

    private mutating func literal(_ word: String) throws(SyntaxError) {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else {
            throw error("expected \(word), true, false, null, a number, a string, an object or an array")
        }
        index += expected.count
    }
}
