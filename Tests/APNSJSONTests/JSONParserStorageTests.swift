@testable import APNSJSON
import Testing

/// The parser reserves room for a few members per object and array up front; what it returns is the same tree
/// whatever the sizes (below, at and above that room), nesting and duplicates.
@Suite struct JSONParserStorageTests {
    /// `{"k0":<v0>,"k1":<v1>,…}` with `count` members, and the value the parser must return.
    static func object(count: Int, depth: Int) -> (text: String, value: JSONValue) {
        var texts: [String] = []
        var members: [JSONMember] = []
        for index in 0..<count {
            let (text, value) = member(index, depth: depth)
            texts.append("\"k\(index)\":\(text)")
            members.append(JSONMember("k\(index)", value))
        }
        return ("{" + texts.joined(separator: ",") + "}", .object(members))
    }

    static func array(count: Int, depth: Int) -> (text: String, value: JSONValue) {
        let elements = (0..<count).map { member($0, depth: depth) }
        return ("[" + elements.map(\.text).joined(separator: ",") + "]", .array(elements.map(\.value)))
    }

    /// Member `index`: a scalar, or (while depth remains) an object or array of a few members of its own.
    static func member(_ index: Int, depth: Int) -> (text: String, value: JSONValue) {
        switch index % 4 {
        case 0 where depth > 0: return object(count: index % 7, depth: depth - 1)
        case 1 where depth > 0: return array(count: index % 5, depth: depth - 1)
        case 2: return ("\"value \(index) with some length\"", .string("value \(index) with some length"))
        default: return ("\(index)", .number("\(index)"))
        }
    }

    @Test(arguments: [0, 1, 2, 3, 15, 16, 17, 40, 200])
    func objectsAndArraysOfAnySizeComeOutAsSent(count: Int) throws {
        for depth in [0, 1, 3] {
            let object = Self.object(count: count, depth: depth)
            #expect(try JSONParser.parse(object.text) == object.value)
            let array = Self.array(count: count, depth: depth)
            #expect(try JSONParser.parse(array.text) == array.value)
            let wrapped = "{\"before\":1,\"inner\":\(object.text),\"list\":\(array.text),\"after\":[]}"
            #expect(try JSONParser.parse(wrapped) == .object([
                JSONMember("before", .number("1")), JSONMember("inner", object.value), JSONMember("list", array.value),
                JSONMember("after", .array([])),
            ]))
        }
    }

    @Test func duplicateKeysStayInOrderAtEveryLevel() throws {
        let text = #"{"a":1,"b":{"a":2,"a":{"a":3,"a":[{"a":4},{"a":5,"a":6}]}},"a":7}"#
        let expected = JSONValue.object([
            JSONMember("a", .number("1")),
            JSONMember("b", .object([
                JSONMember("a", .number("2")),
                JSONMember("a", .object([
                    JSONMember("a", .number("3")),
                    JSONMember("a", .array([
                        .object([JSONMember("a", .number("4"))]),
                        .object([JSONMember("a", .number("5")), JSONMember("a", .number("6"))]),
                    ])),
                ])),
            ])),
            JSONMember("a", .number("7")),
        ])
        #expect(try JSONParser.parse(text) == expected)
        #expect(try JSONParser.parse(text)["a"] == .number("1"))
    }

    @Test func deepNestingWithSiblingsAtEveryLevelComesOutAsSent() throws {
        // 500 levels, alternately objects and arrays, each with a member before and after the nested one.
        var text = "0"
        var value = JSONValue.number("0")
        for level in 0..<500 {
            if level % 2 == 0 {
                text = "{\"x\":\(level),\"n\":\(text),\"y\":\"s\(level)\"}"
                value = .object([JSONMember("x", .number("\(level)")), JSONMember("n", value), JSONMember("y", .string("s\(level)"))])
            } else {
                text = "[\(level),\(text),\"s\(level)\"]"
                value = .array([.number("\(level)"), value, .string("s\(level)")])
            }
        }
        #expect(try JSONParser.parse(text) == value)
    }

    @Test func anErrorInsideANestedObjectIsReportedWhereItIs() {
        #expect(throws: JSONParseError(offset: 15, reason: "expected ',' or '}' in object")) {
            try JSONParser.parse(#"{"a":[1,{"b":2 "c":3}]}"#)
        }
    }
}
