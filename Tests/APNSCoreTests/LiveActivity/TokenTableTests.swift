@testable import APNSCore
import Testing

/// The device's token table finds every token at the slot it was added to, also when two tokens have one hash.
@Suite struct TokenTableTests {
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        /// Added in this order, as (text, hash).
        var added: [(String, Int)]
        /// Looked up: (text, hash, expected slot).
        var lookups: [(String, Int, Int?)]
    }

    static let cases: [Case] = [
        Case(description: "distinct hashes", added: [("aa", 1), ("bb", 2)],
             lookups: [("aa", 1, 0), ("bb", 2, 1), ("cc", 3, nil)]),
        Case(description: "two tokens, one hash", added: [("aa", 7), ("bb", 7), ("cc", 8)],
             lookups: [("aa", 7, 0), ("bb", 7, 1), ("cc", 8, 2), ("dd", 7, nil)]),
        Case(description: "three tokens, one hash", added: [("aa", 7), ("bb", 7), ("cc", 7)],
             lookups: [("cc", 7, 2), ("bb", 7, 1), ("aa", 7, 0), ("dd", 7, nil), ("aa", 9, nil)]),
        Case(description: "numbered tokens that differ in their last digit",
             added: (1...50).map { (String(repeating: "0", count: 158) + String(format: "%02x", $0), $0) },
             lookups: [(String(repeating: "0", count: 158) + "32", 50, 49), (String(repeating: "0", count: 160), 0, nil)]),
    ]

    @Test(arguments: cases) func findsEachTokenAtItsSlot(_ check: Case) {
        var table = TokenTable()
        for (text, hash) in check.added { table.append(TokenKey(text, hash: hash)) }
        #expect(table.keys == check.added.map(\.0))
        for (text, hash, slot) in check.lookups {
            #expect(table.slot(of: TokenKey(text, hash: hash)) == slot, "\(text)")
        }
    }

    /// With real hashes, a device with many tokens lists and finds each one.
    @Test func theDeviceFindsEveryTokenItHasSeen() {
        var table = TokenTable()
        let tokens = (0..<2000).map { String(format: "%0160x", $0) }
        for token in tokens { table.append(TokenKey(token)) }
        #expect(tokens.indices.allSatisfy { table.slot(of: TokenKey(tokens[$0])) == $0 })
        #expect(table.slot(of: TokenKey(String(format: "%0160x", 2000))) == nil)
    }
}

/// A pushed token is keyed in lower case (ASCII capitals only, as before), whatever the position of its capitals
/// and the token's length (the check reads many bytes at a time), and with non-ASCII bytes beside them.
@Suite struct PushedTokenKeyTests {
    static let lengths = [0, 1, 7, 8, 9, 15, 16, 17, 64, 160, 161]

    @Test(arguments: lengths) func aCapitalAnywhereIsFound(_ length: Int) {
        let lower = String(repeating: "a", count: length)
        #expect(!LiveActivityDeviceState.hasASCIICapital(Array(lower.utf8)))
        #expect(TokenKey(pushed: lower).text == lower)
        for position in 0..<length {
            for capital in ["A", "F", "Z"] {
                var bytes = Array(lower.utf8)
                bytes[position] = UInt8(ascii: Unicode.Scalar(capital)!)
                #expect(LiveActivityDeviceState.hasASCIICapital(bytes), "\(capital) at \(position) of \(length)")
                let token = String(decoding: bytes, as: UTF8.self)
                #expect(TokenKey(pushed: token).text == token.lowercased())
            }
        }
    }

    /// The bytes just outside A–Z, and non-ASCII letters (capital or not), are not ASCII capitals.
    @Test func neighboursAndNonASCIIAreNotCapitals() {
        for byte in [UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "a"), UInt8(ascii: "z"), 0x00, 0x7F, 0x80, 0xC1, 0xFF] {
            for position in 0..<17 {
                var bytes = [UInt8](repeating: UInt8(ascii: "0"), count: 17)
                bytes[position] = byte
                #expect(!LiveActivityDeviceState.hasASCIICapital(bytes), "\(byte) at \(position)")
            }
        }
        let mixed = "ÄbcdefgÖhijklmnA"
        #expect(LiveActivityDeviceState.hasASCIICapital(Array(mixed.utf8)))
        #expect(TokenKey(pushed: "ÄbcdefgÖhijklmn").text == "ÄbcdefgÖhijklmn")
        #expect(TokenKey(pushed: mixed).text == mixed.lowercased())
    }

    /// Equal texts hash alike, and a pushed token with capitals finds the lower-case token already in the table.
    @Test func aCapitalisedTokenFindsItsLowerCaseSlot() {
        var table = TokenTable()
        let token = String(repeating: "0f", count: 80)
        table.append(TokenKey(token))
        #expect(table.slot(of: TokenKey(pushed: token.uppercased())) == 0)
        #expect(TokenKey(token).hash == TokenKey(pushed: token).hash)
    }
}
