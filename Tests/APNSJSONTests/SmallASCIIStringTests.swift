@testable import APNSJSON
import Testing

/// The parser puts short ASCII text straight into a small string's words: the strings it returns must be the very
/// strings the standard library makes from the same bytes (bit for bit, so equal, hashed and compared alike).
@Suite struct SmallASCIIStringTests {
    static let sample = Array("0123456789abcdefXYZ-_ ~!".utf8)

    static func bits(_ text: String) -> (UInt64, UInt64) {
        unsafeBitCast(text, to: (UInt64, UInt64).self)
    }

    @Test func theLayoutHoldsOnThisPlatform() {
        #expect(SmallASCIIString.layoutHolds)
    }

    @Test(arguments: 0...SmallASCIIStringTests.sample.count)
    func asciiTextIsTheStandardLibrarysString(count: Int) {
        Self.sample.withUnsafeBufferPointer { sample in
            let bytes = UnsafeBufferPointer(rebasing: sample[0..<count])
            let made = JSONParser.asciiText(bytes)
            let expected = String(decoding: bytes, as: UTF8.self)
            #expect(made == expected)
            #expect(made.hashValue == expected.hashValue)
            #expect(made.utf8.count == count)
            // Up to 15 bytes, held in place: the same bits (longer text is in a buffer of its own).
            if count <= 15 { #expect(Self.bits(made) == Self.bits(expected)) }
        }
    }

    @Test func parsedKeysAndValuesAreTheStandardLibrarysStrings() throws {
        let text = #"{"aps":{"timestamp":1767225600,"event":"update","content-state":{"a":"On the way","b":0.5}},"#
            + #""a key of more than fifteen bytes":"and a value of more than fifteen bytes","é":"ü"}"#
        let parsed = try JSONParser.parse(text)
        func strings(_ value: JSONValue) -> [String] {
            switch value {
            case .string(let text), .number(let text): [text]
            case .array(let items): items.flatMap(strings)
            case .object(let members): members.flatMap { [$0.key] + strings($0.value) }
            case .null, .bool: []
            }
        }
        let found = strings(parsed)
        #expect(found.count == 14)
        for string in found {
            let remade = String(decoding: Array(string.utf8), as: UTF8.self)
            #expect(string == remade)
            // Small strings (up to 15 bytes) hold their bytes in place: the same bytes, the same bits.
            if string.utf8.count <= 15 { #expect(Self.bits(string) == Self.bits(remade), "\(string)") }
        }
    }
}
