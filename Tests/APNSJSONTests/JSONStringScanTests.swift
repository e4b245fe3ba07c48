@testable import APNSJSON
import Foundation
import Testing

/// The parser moves through a string's plain ASCII eight bytes at a time; a quote, a backslash, a control character
/// or a non-ASCII byte at any position of those eight is still found exactly where it is.
@Suite struct JSONStringScanTests {
    /// Each special at every offset from 0 to 19 inside runs of plain letters, with plain bytes after it.
    @Test func specialsAtEveryOffsetParseAsFoundation() throws {
        let specials = [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#, "é", "😀", "/", "~"]
        for special in specials {
            for before in 0..<20 {
                for after in [0, 1, 7, 8, 9, 17] {
                    let text = String(repeating: "a", count: before) + special + String(repeating: "b", count: after)
                    let json = "[\"\(text)\",\"\(text)x\"]"
                    let expected = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
                    let parsed = try JSONParser.parse(json)
                    #expect(parsed == .array((expected ?? []).map(JSONValue.string)), "\(json)")
                }
            }
        }
    }

    /// A control character or invalid UTF-8 is refused wherever it sits in the eight bytes read at once.
    @Test func refusalsAtEveryOffset() {
        for before in 0..<20 {
            let plain = Array(repeating: UInt8(ascii: "a"), count: before)
            let tail = Array(repeating: UInt8(ascii: "b"), count: 9)
            for bad: [UInt8] in [[0x01], [0x1F], [0xFF], [0xC3], [0xED, 0xA0, 0x80]] {
                let bytes = [UInt8(ascii: "\"")] + plain + bad + tail + [UInt8(ascii: "\"")]
                #expect(throws: JSONParseError.self, "\(before) \(bad)") { try JSONParser.parse(bytes) }
            }
            let unterminated = [UInt8(ascii: "\"")] + plain
            #expect(throws: JSONParseError.self) { try JSONParser.parse(unterminated) }
        }
    }
}
