import APNSCore
import Testing

@Suite struct JSONValueTests {
    private func parse(_ text: String) -> JSONValue? {
        JSONValue.parse(Array(text.utf8))
    }

    @Test func objectsKeepTypesApart() {
        let value = parse(#" {"a":1,"b":1.5,"c":true,"d":"x","e":null,"f":[1,"2"],"g":{},"h":-0,"i":1e3} "#)
        #expect(value == .object([
            "a": .integer(1), "b": .number(1.5), "c": .bool(true), "d": .string("x"), "e": .null,
            "f": .array([.integer(1), .string("2")]), "g": .object([:]), "h": .integer(0), "i": .number(1000),
        ]))
    }

    @Test func escapesAndSurrogatePairsDecode() {
        #expect(parse(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\né😀"))
    }

    @Test func integersBeyond64BitsBecomeNumbers() {
        #expect(parse("18446744073709551616") == .number(18_446_744_073_709_551_616))
    }

    @Test(arguments: [
        "", " ", "hello", "{", "{\"a\":1", "{\"a\" 1}", "{\"a\":1,}", "[1,]", "[1 2]", "{a:1}", "'a'", "01", "1.",
        ".5", "-", "1e", "tru", "nul", "{} {}", "\"\\x\"", "\"\\ud83d\"", "\"\\u12\"", "\"tab\there\"", "NaN",
    ])
    func malformedTextIsNotJSON(_ text: String) {
        #expect(parse(text) == nil)
    }

    @Test func invalidUTF8InAStringIsNotJSON() {
        #expect(JSONValue.parse([0x22, 0xFF, 0xFE, 0x22]) == nil)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(parse(deep) == nil)
        #expect(parse(fine) != nil)
    }
}
