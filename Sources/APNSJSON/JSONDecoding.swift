import Foundation

/// `JSONDecoder`, with nesting checked first. Foundation's `JSONDecoder` (this toolchain's FoundationEssentials)
/// traps — the process dies with SIGILL in `JSONError.SourceLocation` — when a document nests deeper than 512 after
/// a newline (`"\n" + "[" × 513`): a fuzzer found it through `POST /api/config/tokens`, which took the whole server
/// down. Documents nested deeper than `JSONParser.maximumDepth` are refused here with a `DecodingError` before
/// `JSONDecoder` sees them; `JSONDecoder` refuses them anyway, so no answer changes, only the crash goes.
public enum JSONDecoding {
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if let offset = firstOffsetTooDeep(data) {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [],
                debugDescription: "The given data was not valid JSON: nesting deeper than \(JSONParser.maximumDepth) at byte \(offset)."))
        }
        return try JSONDecoder().decode(type, from: data)
    }

    /// The offset of the first `[` or `{` (outside strings) that opens a level deeper than the limit, if any.
    static func firstOffsetTooDeep(_ data: Data, limit: Int = JSONParser.maximumDepth) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        for (offset, byte) in data.enumerated() {
            if inString {
                if escaped { escaped = false }
                else if byte == UInt8(ascii: "\\") { escaped = true }
                else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return offset }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
        }
        return nil
    }
}
