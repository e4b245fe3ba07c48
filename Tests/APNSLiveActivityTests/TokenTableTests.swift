@testable import APNSLiveActivity
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
