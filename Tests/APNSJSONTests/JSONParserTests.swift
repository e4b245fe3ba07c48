@testable import APNSJSON
import Foundation
import Testing

/// The one parser keeps what `JSONDecoder` distinguishes (number text, key order, duplicates), refuses what
/// `JSONDecoder` refuses, and reads duplicate keys as `JSONDecoder` does (first wins).
@Suite struct JSONParserTests {
    @Test(arguments: [
        ("{}", JSONValue.object([])),
        (#"{"a":1,"b":[true,null,"x"]}"#, .object([
            JSONMember("a", .number("1")), JSONMember("b", .array([.bool(true), .null, .string("x")])),
        ])),
        (#" {"a":1,"b":1.5,"c":true,"d":"x","e":null,"f":[1,"2"],"g":{},"h":-0,"i":1e3} "#, .object([
            JSONMember("a", .number("1")), JSONMember("b", .number("1.5")), JSONMember("c", .bool(true)),
            JSONMember("d", .string("x")), JSONMember("e", .null),
            JSONMember("f", .array([.number("1"), .string("2")])), JSONMember("g", .object([])),
            JSONMember("h", .number("-0")), JSONMember("i", .number("1e3")),
        ])),
        ("  -0.5e+3 ", .number("-0.5e+3")),
        (#""\u00e9\n\ud83d\ude00""#, .string("é\n😀")),
        (#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#, .string("a\"b\\c/d\né😀")),
        (#""nul\u0000""#, .string("nul\u{0}")),
        (#"{"k":1,"k":2}"#, .object([JSONMember("k", .number("1")), JSONMember("k", .number("2"))])),
        ("18446744073709551615", .number("18446744073709551615")),
        ("18446744073709551616", .number("18446744073709551616")),
    ])
    func parsesValidJSON(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
        #expect(JSONValue.parse(Array(text.utf8)) == expected)
    }

    /// Malformed text, and text `JSONDecoder` refuses although a lenient parser could read it: a lone or reversed
    /// surrogate escape.
    static let invalid = [
        "", " ", "hello", "{", "{\"a\":1", "{\"a\" 1}", "{\"a\":1,}", "[1,]", "[1 2]", "{a:1}", "'a'", "'single'", "01",
        "[01]", "1.", ".5", "-", "1e", "tru", "nul", "{} {}", "{\"a\":1} x", "\"unterminated", "\"\\x\"",
        "\"\\u12\"", "\"tab\there\"", "NaN", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83dx\"", "\"\\ud83d\\ud83d\"",
        "\"\\ude00\\ud83d\"",
    ]

    @Test(arguments: invalid)
    func refusesInvalidJSON(text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        #expect(JSONValue.parse(Array(text.utf8)) == nil)
    }

    @Test(arguments: [[0x22, 0xFF, 0xFE, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] as [[UInt8]])
    func refusesInvalidUTF8InAString(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
    }

    /// Trailing commas: `JSONDecoder` on Swift 6 reads them, the parser refuses them (RFC 8259, and the mock has
    /// always answered such a body as not JSON). If a toolchain stops accepting them, this test says so.
    static let trailingCommas = ["{\"a\":1,}", "[1,]"]

    @Test(arguments: trailingCommas)
    func refusesTrailingCommasThatJSONDecoderReads(text: String) {
        #expect(JSONValue.parse(Array(text.utf8)) == nil)
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) != nil)
    }

    /// The policy is `JSONDecoder`'s: for every table input but trailing commas, the parser accepts exactly when
    /// `JSONDecoder` does.
    @Test(arguments: invalid.filter { !trailingCommas.contains($0) } + [
        #"{"a":[1,2.5,"x\"y"],"b":{"c":null,"d":false}}"#, #""\ud83d\ude00""#, "[\"é\"]", "-0", "1E+2", "[]",
        #"{"k":1,"k":2}"#,
    ])
    func acceptsExactlyWhatJSONDecoderAccepts(text: String) {
        let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect((JSONValue.parse(Array(text.utf8)) != nil) == (decoded != nil))
    }

    @Test func firstDuplicateKeyWinsLikeJSONDecoder() throws {
        struct Probe: Decodable { var k: Int }
        let text = #"{"k":1,"k":2}"#
        let value = try JSONParser.parse(text)
        #expect(value["k"] == .number("1"))
        #expect(value.objectValue?["k"] == .number("1"))
        #expect(value.keys == ["k"])
        #expect(try JSONDecoder().decode(Probe.self, from: Data(text.utf8)).k == 1)
    }

    @Test func nestingIsBounded() {
        let limit = JSONParser.maximumDepth
        let deep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let deeper = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        #expect(JSONValue.parse(Array(deeper.utf8)) == nil)
        #expect(JSONValue.parse(Array(fine.utf8)) != nil)
    }

    @Test func failureSaysWhereAndWhy() {
        #expect(throws: JSONParseError(offset: 7, reason: "expected ',' or '}' in object")) {
            try JSONParser.parse(#"{"a":1 "b":2}"#)
        }
    }
}

/// Foundation's JSONDecoder traps on a newline followed by nesting deeper than 512 (the fuzzer's admin-body crash);
/// `JSONDecoding.decode` refuses such documents first, with a DecodingError, and decodes everything else as before.
@Suite struct JSONDecodingTests {
    @Test(arguments: ["\n" + String(repeating: "[", count: 513), String(repeating: "{\"a\":", count: 600) + "1"])
    func nestingDeeperThan512IsADecodingErrorNotACrash(_ text: String) {
        #expect(throws: DecodingError.self) { try JSONDecoding.decode([String].self, from: Data(text.utf8)) }
    }

    @Test func nestingUpTo512AndBracketsInStringsStillDecode() throws {
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(JSONDecoding.firstOffsetTooDeep(Data(deep.utf8)) == nil)
        let quoted = "[\"" + String(repeating: "[", count: 600) + "\\\"\"]"
        #expect(try JSONDecoding.decode([String].self, from: Data(quoted.utf8)) == [String(repeating: "[", count: 600) + "\""])
    }
}
