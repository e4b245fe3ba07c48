import Testing
@testable import ActivitySourceParser

/// Deep `[` nesting makes swift-syntax's lookahead take exponential time (a fuzzer's `["nobody"][[[[…` ran over 10 s);
/// such files are refused before parsing, with a problem naming the line.
struct SquareBracketNestingTests {
    static func source(contentStateLine: String) -> String {
        """
        import ActivityKit
        struct MatchAttributes: ActivityAttributes {
            struct ContentState: Codable, Hashable {
                var score: Int
                \(contentStateLine)
            }
            var home: String
        }
        """
    }

    @Test(arguments: [
        ("unbalanced, as the fuzzer wrote it", "var scorers = [\"nobody\"]" + String(repeating: "[", count: 40)),
        ("balanced", "var grid = " + String(repeating: "[", count: 30) + "1" + String(repeating: "]", count: 30)),
        ("in a type", "var deep: " + String(repeating: "[", count: 25)),
    ])
    func fileNestedTooDeepIsReportedNotParsed(label: String, line: String) {
        let result = ActivitySourceParser.parse(sources: [("Match.swift", Self.source(contentStateLine: line))])
        #expect(result.schemas.isEmpty, "\(label)")
        #expect(result.problems.contains { $0.hasPrefix("Match.swift:5: square brackets nested more than 8 deep") },
                "\(label): \(result.problems)")
    }

    @Test func eightLevelsAreStillRead() throws {
        let line = "var grid: " + String(repeating: "[", count: 8) + "Int" + String(repeating: "]", count: 8)
        let result = ActivitySourceParser.parse(sources: [("Match.swift", Self.source(contentStateLine: line))])
        let schema = try #require(result.schemas.first)
        #expect(schema.attributesType == "MatchAttributes")
        #expect(!result.problems.contains { $0.contains("square brackets") })
    }

    @Test func bracketsInCommentsDoNotCount() {
        let text = "// " + String(repeating: "[", count: 20) + "\n/* " + String(repeating: "[", count: 20)
            + " /* nested */ still a comment */\nlet x = [[1]]\n"
        #expect(SquareBracketNesting.firstLineTooDeep(in: text) == nil)
        #expect(SquareBracketNesting.firstLineTooDeep(in: text + String(repeating: "[", count: 9)) == 4)
    }
}
