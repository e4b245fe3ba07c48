import APNSCore
import Foundation
import Testing

@Suite struct ApnsIDTests {
    @Test(arguments: ["123e4567-e89b-12d3-a456-4266554400a0", "ACDFB3EB-105B-D33C-7F29-8D09A01CC4EF", "not-a-uuid"])
    func requestValueIsEchoedByteForByte(_ sent: String) {
        #expect(ApnsID.resolve(requestValue: sent) == sent)
    }

    @Test(arguments: [nil, ""] as [String?])
    func missingRequestValueGetsANewUpperCaseUUID(_ sent: String?) {
        let id = ApnsID.resolve(requestValue: sent)
        #expect(ApnsID.isCanonicalUUID(id))
        #expect(id == id.uppercased())
        #expect(id != ApnsID.resolve(requestValue: sent))
    }

    @Test func uniqueIDIsALowerCaseUUID() {
        let id = ApnsID.newUniqueID()
        #expect(ApnsID.isCanonicalUUID(id))
        #expect(id == id.lowercased())
    }

    @Test func newIDsAreVersion4VariantRFCAndDistinct() {
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let id = ApnsID.newUniqueID()
            let bytes = Array(id.utf8)
            #expect(bytes[14] == UInt8(ascii: "4"))
            #expect([UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(bytes[19]))
            seen.insert(id)
        }
        #expect(seen.count == 10_000)
    }

    @Test(arguments: [
        ("123e4567-e89b-12d3-a456-4266554400a0", true),
        ("ACDFB3EB-105B-D33C-7F29-8D09A01CC4EF", true),
        ("123e4567e89b12d3a4564266554400a0", false),
        ("123e4567-e89b-12d3-a456-4266554400a", false),
        ("123e4567-e89b-12d3-a456-4266554400a0 ", false),
        ("g23e4567-e89b-12d3-a456-4266554400a0", false),
        ("123e4567_e89b_12d3_a456_4266554400a0", false),
        ("", false),
    ])
    func canonicalUUIDShape(_ value: String, _ isCanonical: Bool) {
        #expect(ApnsID.isCanonicalUUID(value) == isCanonical)
    }
}

/// The canonical text of 128 bits is Foundation's `uuidString` for the same bytes (upper case), or its lower-cased
/// form, for fixed and random values.
@Suite struct CanonicalUUIDTextTests {
    @Test func textIsFoundationsUUIDString() {
        var generator = SystemRandomNumberGenerator()
        let fixed: [(UInt64, UInt64)] = [(0, 0), (.max, .max), (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210)]
        let random = (0..<200).map { _ in (generator.next() as UInt64, generator.next() as UInt64) }
        for (high, low) in fixed + random {
            var bytes: [UInt8] = []
            for word in [high, low] {
                for shift in stride(from: 56, through: 0, by: -8) {
                    bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
                }
            }
            let uuid = UUID(uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            #expect(CanonicalUUID.text(high: high, low: low, uppercase: true) == uuid.uuidString)
            #expect(CanonicalUUID.text(high: high, low: low, uppercase: false) == uuid.uuidString.lowercased())
        }
    }
}

/// `CanonicalUUID.parse` reads back what `text` writes, with the letter case; text that is not canonical (a dash
/// moved, a non-hex byte anywhere, letters of both cases, another length) reads as nil.
@Suite struct CanonicalUUIDParseTests {
    static func parsed(_ text: String) -> (high: UInt64, low: UInt64, uppercase: Bool?)? {
        CanonicalUUID.parse(text.utf8.span)
    }

    @Test func readsBackTheText() {
        var generator = SystemRandomNumberGenerator()
        let fixed: [(UInt64, UInt64)] = [(0xAAAA_0000_0000_0000, 0), (.max, .max), (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210)]
        let random = (0..<200).map { _ in (generator.next() as UInt64, generator.next() as UInt64) }
        for (high, low) in fixed + random {
            for uppercase in [true, false] {
                let text = CanonicalUUID.text(high: high, low: low, uppercase: uppercase)
                let back = Self.parsed(text)
                #expect(back?.high == high && back?.low == low && back?.uppercase == uppercase, "\(text)")
            }
        }
        let digitsOnly = Self.parsed("01234567-8901-2345-6789-012345678901")
        #expect(digitsOnly?.high == 0x0123_4567_8901_2345 && digitsOnly?.low == 0x6789_0123_4567_8901)
        #expect(digitsOnly?.uppercase == .some(nil))
    }

    /// Every byte at every digit position of a canonical text: a hexadecimal digit (`hexDigit`) reads as its value
    /// at that place, with its letter case; any other byte makes the text nil (the digits are decoded eight at a
    /// time, so this tries each byte of each word).
    @Test func everyByteAtEveryDigitPosition() {
        let zeros = Array("00000000-0000-0000-0000-000000000000".utf8)
        var failures: [String] = []
        var digitIndex = 0
        for position in 0..<36 where !CanonicalUUID.isDash(at: position) {
            defer { digitIndex += 1 }
            for byte in UInt8.min...UInt8.max {
                var text = zeros
                text[position] = byte
                let parsed = CanonicalUUID.parse(text.span)
                guard let digit = CanonicalUUID.hexDigit(byte) else {
                    if parsed != nil { failures.append("byte \(byte) at \(position) read as a digit") }
                    continue
                }
                let value = UInt64(digit.value) << UInt64(4 * (15 - digitIndex % 16))
                let (high, low) = digitIndex < 16 ? (value, UInt64(0)) : (0, value)
                if parsed?.high != high || parsed?.low != low || parsed?.uppercase != digit.upper {
                    failures.append("byte \(byte) at \(position): \(String(describing: parsed))")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test(arguments: [
        "", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0",
        "E621E1F8C36C-495A-93FC-0C247A3E6E5F-", "E621E1F8-C36C-495A-93FC-0c247A3E6E5F",
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5G", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F",
        "E621E1F8-C36C-495A-93FC_0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5é",
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5\u{0}",
    ])
    func nonCanonicalTextReadsAsNil(_ text: String) {
        #expect(Self.parsed(text) == nil, "\(text.debugDescription)")
    }
}
