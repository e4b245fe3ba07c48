import APNSLiveActivity
import Testing

/// The strict parser keeps what `JSONDecoder` distinguishes (number text, key order, duplicates) and refuses what
/// RFC 8259 refuses.
@Suite struct JSONParserTests {
    @Test(arguments: [
        ("{}", JSONValue.object([])),
        (#"{"a":1,"b":[true,null,"x"]}"#, .object([
            JSONMember("a", .number("1")), JSONMember("b", .array([.bool(true), .null, .string("x")])),
        ])),
        ("  -0.5e+3 ", .number("-0.5e+3")),
        (#""\u00e9\n\ud83d\ude00""#, .string("é\n😀")),
        (#"{"k":1,"k":2}"#, .object([JSONMember("k", .number("1")), JSONMember("k", .number("2"))])),
        ("18446744073709551615", .number("18446744073709551615")),
    ])
    func parsesValidJSON(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"unterminated", "{\"a\":1} x", "'single'",
        "\"tab\there\"", "{a:1}", "\"\\x\"",
    ])
    func refusesInvalidJSON(text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
    }

    @Test func firstDuplicateKeyWinsLikeJSONDecoder() throws {
        let value = try JSONParser.parse(#"{"k":1,"k":2}"#)
        #expect(value["k"] == .number("1"))
    }

    @Test(arguments: [
        #"{"a":[1,2.5,"x\"y"],"b":{"c":null,"d":false}}"#,
        #"{"emoji":"😀","ctl":"\u0001"}"#,
    ])
    func compactTextRoundTrips(text: String) throws {
        let value = try JSONParser.parse(text)
        #expect(try JSONParser.parse(value.compactText) == value)
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 1)
            + String(repeating: "]", count: JSONParser.maximumDepth + 1)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(deep) }
    }
}
