@testable import APNSCore
import Testing

/// The word-at-a-time scans answer exactly what the plain byte loops answer, for every byte value at every position
/// of tokens around the eight-byte word size.
@Suite struct TokenScanTests {
    static func byteLoopCount(_ bytes: [UInt8]) -> Int {
        bytes.prefix { CanonicalUUID.hexDigit($0) != nil }.count
    }

    static func scanned(_ bytes: [UInt8]) -> (count: Int, slash: Bool) {
        (CanonicalUUID.leadingHexDigitCount(bytes.span), ByteScan.contains(UInt8(ascii: "/"), in: bytes.span))
    }

    @Test func everyByteValueAtEveryPositionIsJudgedAsByByte() {
        let hex = Array("0123456789abcdefABCDEF".utf8)
        for length in [1, 7, 8, 9, 16, 17, 24, 31] {
            let base = (0..<length).map { hex[$0 % hex.count] }
            for position in 0..<length {
                for value in 0...255 {
                    var bytes = base
                    bytes[position] = UInt8(value)
                    let (count, slash) = Self.scanned(bytes)
                    #expect(count == Self.byteLoopCount(bytes), "length \(length), byte \(value) at \(position)")
                    #expect(slash == bytes.contains(UInt8(ascii: "/")), "length \(length), byte \(value) at \(position)")
                }
            }
        }
    }

    @Test func hexDigitsAreExactlyTheTwentyTwo() {
        let digits = Set("0123456789abcdefABCDEF".utf8)
        for value in 0...255 {
            #expect((CanonicalUUID.hexDigit(UInt8(value)) != nil) == digits.contains(UInt8(value)))
        }
    }

    @Test(arguments: [0, 64, 108, 160, 200])
    func tokensOfRealLengthsAreCountedWhole(_ digits: Int) {
        let token = Array(String(repeating: "0aF9", count: digits / 4 + 1).utf8.prefix(digits))
        #expect(Self.scanned(token) == (digits, false))
        #expect(Self.scanned(token + Array("/x".utf8)) == (digits, true))
    }

    @Test func prefixTestIsByteWise() {
        #expect("/3/device/abc".hasUTF8Prefix("/3/device/"))
        #expect("/3/device/".hasUTF8Prefix("/3/device/"))
        #expect(!"/3/device".hasUTF8Prefix("/3/device/"))
        #expect(!"/3/devicé/abc".hasUTF8Prefix("/3/device/"))
        #expect("anything".hasUTF8Prefix(""))
        #expect(!"".hasUTF8Prefix("/"))
    }
}
