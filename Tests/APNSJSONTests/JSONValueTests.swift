import APNSJSON
import Foundation
import Testing

/// The numeric views read a number's literal without ever trapping, and the accessors keep the rules readable.
@Suite struct JSONValueTests {
    struct NumberCase: Sendable, CustomTestStringConvertible {
        var literal: String
        var int64: Int64?
        var double: Double?
        var testDescription: String { literal }
    }

    @Test(arguments: [
        NumberCase(literal: "1", int64: 1, double: 1),
        NumberCase(literal: "1.5", int64: nil, double: 1.5),
        NumberCase(literal: "-0", int64: 0, double: 0),
        NumberCase(literal: "1e3", int64: nil, double: 1000),
        NumberCase(literal: "5.0", int64: nil, double: 5),
        NumberCase(literal: "9223372036854775807", int64: Int64.max, double: 9.223372036854775807e18),
        NumberCase(literal: "18446744073709551616", int64: nil, double: 18_446_744_073_709_551_616),
        NumberCase(literal: "-99999999999999999999", int64: nil, double: -1e20),
        NumberCase(literal: "1e400", int64: nil, double: .infinity),
    ])
    func numbersReadTheirLiteral(testCase: NumberCase) throws {
        let value = try JSONParser.parse(testCase.literal)
        #expect(value == .number(testCase.literal))
        #expect(value.int64Value == testCase.int64)
        #expect(value.doubleValue == testCase.double)
    }

    /// Whole literals (a UNIX time, a score) are read without `strtod`: the same `Double`, sign of zero included,
    /// at every length around the 15-digit fast path's limit.
    @Test(arguments: [
        "0", "-0", "7", "1767225600", "1767225600000", "999999999999999", "100000000000000", "9007199254740993",
        "1234567890123456", "12345678901234567", "00", "-1767225600", "1767225600.0",
    ])
    func wholeLiteralsReadAsStrtodReadsThem(literal: String) {
        let read = JSONValue.number(literal).doubleValue
        let expected = Double(literal)
        #expect(read == expected)
        #expect(read?.sign == expected?.sign)
    }

    @Test(arguments: [
        (1_767_225_600, "1767225600"), (0.5, "0.5"), (-3, "-3"), (1e20, "1e+20"), (Double.infinity, "inf"),
    ] as [(Double, String)])
    func numbersFromDoublesDropAWholeFraction(value: Double, text: String) {
        #expect(JSONValue.number(value) == .number(text))
    }

    @Test(arguments: [
        (JSONValue.null, "null", "null"), (.bool(true), "boolean", "a boolean"), (.number("1"), "number", "a number"),
        (.string("x"), "string", "a string"), (.array([]), "array", "an array"), (.object([]), "object", "an object"),
    ])
    func kindsAreNamed(value: JSONValue, kind: String, description: String) {
        #expect(value.kindName == kind)
        #expect(value.typeDescription == description)
    }

    @Test func accessorsReadObjectsAndStrings() throws {
        let value = try JSONParser.parse(#"{"b":"x","a":{"c":1},"b":"y"}"#)
        #expect(value.isObject)
        #expect(value["a"]?["c"] == .number("1"))
        #expect(value["missing"] == nil)
        #expect(value["b"]?.stringValue == "x")
        #expect(value.keys == ["b", "a"])
        #expect(value.members?.count == 3)
        #expect(JSONValue.string("x")["a"] == nil)
        #expect(JSONValue.string("x").objectValue == nil)
    }

    /// Through `Codable` (JSONEncoder does not keep key order) members and exact integers survive.
    @Test func codableRoundTripKeepsMembersAndIntegers() throws {
        let value = try JSONParser.parse(#"{"z":1,"a":[true,null,"s",2.5],"big":18446744073709551615}"#)
        let encoded = try JSONEncoder().encode(value)
        #expect(try JSONParser.parse(Array(encoded)).objectValue == value.objectValue)
        #expect(try JSONDecoder().decode(JSONValue.self, from: encoded).objectValue == value.objectValue)
    }
}
