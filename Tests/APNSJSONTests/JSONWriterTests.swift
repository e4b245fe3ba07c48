import APNSJSON
import Foundation
import Testing

/// The byte writer's output is compact, escapes what RFC 8259 requires, and reads back as the value written.
@Suite struct JSONWriterTests {
    @Test(arguments: [
        #"{"a":[1,2.5,"x\"y"],"b":{"c":null,"d":false}}"#,
        #"{"emoji":"😀","ctl":"\u0001"}"#,
        #"{"k":1,"k":2,"n":-0.5e+3}"#,
        #"{"empty":{},"none":[],"one":[true],"tab\tkey":"line\nbreak\r\\ \b\f","deep":[[[{"x":[]}]]]}"#,
        "[]", "{}", #""only""#, "true", "null", "12",
    ])
    func compactTextRoundTrips(text: String) throws {
        let value = try JSONParser.parse(text)
        #expect(try JSONParser.parse(value.compactText) == value)
        #expect(value.compactByteCount == value.compactText.utf8.count)
    }

    @Test(arguments: [
        ("plain", #""plain""#), ("q\"b\\", #""q\"b\\""#), ("a/b", #""a/b""#), ("\n\r\t", #""\n\r\t""#),
        ("\u{01}\u{1f}", #""\u0001\u001f""#), ("é😀", "\"é😀\""), ("", #""""#),
        ("ab\"cd\"", #""ab\"cd\"""#), ("\"x", #""\"x""#), ("x\ny\tz", #""x\ny\tz""#),
    ])
    func stringsAreEscapedAsRFC8259Requires(text: String, expected: String) {
        var writer = JSONWriter()
        writer.string(text)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    /// Eight bytes are skipped at a time: a character that needs escaping is found at every offset of a word, and
    /// bytes next to the ones it tests (0x1f/0x20, 0x21/0x23, 0x5b/0x5d, 0x7f, 0x80–0xff of UTF-8) are not. The
    /// output reads back as the text, and keeps no raw control character.
    @Test(arguments: ["\"", "\\", "\n", "\u{1f}", "\u{00}"])
    func anEscapeIsFoundAtEveryOffset(special: String) throws {
        let neighbours = " !#[]\u{7f}é😀"
        for length in 0..<20 {
            for offset in 0...length {
                let filler = String(repeating: "a", count: length)
                let text = String(filler.prefix(offset)) + special + String(filler.dropFirst(offset)) + neighbours
                var writer = JSONWriter()
                writer.string(text)
                #expect(try JSONDecoder().decode(String.self, from: Data(writer.bytes)) == text, "\(length) \(offset)")
                #expect(!writer.bytes.contains { $0 < 0x20 }, "\(length) \(offset)")
            }
        }
    }

    /// Digits are written in place; every Int64 reads as `String(value)` would print it.
    @Test(arguments: [Int64.min, -1_000_000_007, -1, 0, 7, 10, 1_767_225_600_123_456_789, Int64.max])
    func integersAreWrittenAsDecimalText(value: Int64) {
        var writer = JSONWriter()
        writer.integer(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
    }

    @Test func containersSeparateMembersAndElements() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("s", "x")
        writer.field("i", Int64(-7))
        writer.field("b", true)
        writer.key("list")
        writer.beginArray()
        for number in [1, 2] as [Int64] {
            writer.element()
            writer.integer(number)
        }
        writer.element()
        writer.null()
        writer.endArray()
        writer.field("v", JSONValue.object([JSONMember("k", .number("1.0"))]))
        writer.endObject()
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == #"{"s":"x","i":-7,"b":true,"list":[1,2,null],"v":{"k":1.0}}"#)
        #expect(try JSONSerialization.jsonObject(with: Data(writer.bytes)) is [String: Any])
    }

    /// The output grows past its first 256 bytes as often as needed and keeps every byte, escapes included.
    @Test func longOutputGrowsAndKeepsEveryByte() throws {
        let text = String(repeating: "ab\"c\n", count: 5_000)
        var writer = JSONWriter()
        writer.beginArray()
        for _ in 0..<3 {
            writer.element()
            writer.string(text)
        }
        writer.endArray()
        let expected = "[" + Array(repeating: "\"" + String(repeating: #"ab\"c\n"#, count: 5_000) + "\"", count: 3)
            .joined(separator: ",") + "]"
        #expect(writer.bytes == Array(expected.utf8))
        #expect(try JSONParser.parse(writer.bytes) == .array(Array(repeating: .string(text), count: 3)))
    }

    /// A writer sized below what the escapes take grows while it writes one string (every size from no spare
    /// byte up): the output is the string's escapes, byte for byte.
    @Test func escapesGrowAWriterSizedBelowThem() {
        let text = String(repeating: "\u{01}\"a\n", count: 40) + "tail"
        let expected = "\"" + String(repeating: #"\u0001\"a\n"#, count: 40) + "tail\""
        for capacity in [16, 17, 20, 170, 200, 400] {
            var writer = JSONWriter(capacity: capacity)
            writer.string(text)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == expected, "capacity \(capacity)")
        }
    }

    /// Every alignment of escapes against the buffer's growth: plain prefixes of 0–23 bytes, then 1–39 bytes that
    /// each take a six-byte escape, or a mix of six- and two-byte escapes, in writers of 16–96 bytes. The writer
    /// asserts (debug builds, as the tests run) that no escape and no closing quote lands past its buffer; the
    /// output is checked against the escapes written one by one.
    @Test func escapesNeverRunPastTheBufferAtAnyAlignment() {
        for pattern in ["\u{01}", "\u{01}\"\u{1f}\n"] {
            for prefix in 0..<24 {
                for escapes in 1..<40 {
                    let text = String(repeating: "a", count: prefix)
                        + String(String(repeating: pattern, count: escapes).unicodeScalars.prefix(escapes))
                    let expected = Array(Self.escapedOneByOne(text).utf8)
                    for capacity in 16...96 {
                        var writer = JSONWriter(capacity: capacity)
                        writer.string(text)
                        if writer.bytes != expected {
                            Issue.record("prefix \(prefix), escapes \(escapes), capacity \(capacity)")
                            return
                        }
                    }
                }
            }
        }
    }

    /// `string(utf8:)` writes the bytes of a text as `string` writes the text.
    @Test(arguments: ["", "plain", "q\"b\\\n\u{1f}", "é😀 and more than eight bytes"])
    func utf8BytesAreWrittenAsTheirText(text: String) {
        var fromText = JSONWriter()
        fromText.string(text)
        var fromBytes = JSONWriter(capacity: 1)
        Array(text.utf8).withUnsafeBufferPointer { fromBytes.string(utf8: $0) }
        #expect(fromBytes.bytes == fromText.bytes)
    }

    /// Members are separated at every depth, past the 64 levels kept in bits too.
    @Test func containersSeparateMembersAtEveryDepth() throws {
        var writer = JSONWriter()
        for _ in 0..<70 {
            writer.beginArray()
            writer.element()
            writer.integer(1)
            writer.element()
        }
        writer.null()
        writer.endArray()
        for _ in 0..<69 {
            writer.element()
            writer.integer(2)
            writer.endArray()
        }
        let expected = String(repeating: "[1,", count: 70) + "null]" + String(repeating: ",2]", count: 69)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    /// The escapes of RFC 8259 written one byte at a time, quotes included.
    static func escapedOneByOne(_ text: String) -> String {
        var out = "\""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#
            case UInt8(ascii: "\\"): out += #"\\"#
            case 0x0A: out += #"\n"#
            case 0x0D: out += #"\r"#
            case 0x09: out += #"\t"#
            case ..<0x20: out += #"\u00"# + String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
            default: out += String(decoding: [byte], as: UTF8.self)
            }
        }
        return out + "\""
    }

    /// A word is kept up to its first byte that needs escaping, though the bit tests may also flag bytes after it
    /// (a control character or a quote borrows from the byte above: `\u{0}` then a space, a quote then `#`, a
    /// backslash then `]`); the last bytes of a text (fewer than eight) are tested as one padded word. Every such
    /// pair at every offset of texts of 1–20 bytes is written as the bytes escaped one by one.
    @Test(arguments: ["\u{0} ", "\u{1f}\u{20}", "\"#", "\\]", "\n\"", "\"\"", "\u{0}\u{0}"])
    func theFirstByteToEscapeIsFoundBeforeFalselyFlaggedOnes(pair: String) {
        for length in 1...20 {
            for offset in 0..<length {
                let filler = String(repeating: "a", count: length)
                let text = String(filler.prefix(offset)) + pair + String(filler.dropFirst(offset))
                var writer = JSONWriter(capacity: 16)
                writer.string(text)
                #expect(String(decoding: writer.bytes, as: UTF8.self) == Self.escapedOneByOne(text), "\(length) \(offset)")
            }
        }
    }

    /// A key is written with its comma, quotes and colon in one step: every alignment of escapes against the
    /// buffer's growth still gives the members written piece by piece.
    @Test func keysAreFramedAndEscapedAtAnyAlignment() {
        for pattern in ["k", "\u{01}", "\u{01}\"\u{1f}\n"] {
            for prefix in 0..<12 {
                for escapes in 0..<20 {
                    let key = String(repeating: "a", count: prefix)
                        + String(String(repeating: pattern, count: escapes).unicodeScalars.prefix(escapes))
                    let member = Self.escapedOneByOne(key) + #":"v""#
                    let expected = "{" + member + "," + member + "}"
                    for capacity in 16...64 {
                        var writer = JSONWriter(capacity: capacity)
                        writer.beginObject()
                        writer.field(key, "v")
                        writer.field(key, "v")
                        writer.endObject()
                        if String(decoding: writer.bytes, as: UTF8.self) != expected {
                            Issue.record("prefix \(prefix), escapes \(escapes), capacity \(capacity)")
                            return
                        }
                    }
                }
            }
        }
    }
}
