import APNSCore
import Foundation
import Testing

/// The bits a generated id comes with (`RandomUUID.makeWithBits`, kept by the store and the device's timeline instead
/// of reading the text back) are what `CanonicalUUID.parse` reads from its text, letter case included.
@Suite struct UUIDBitsTests {
    private static func parsed(_ text: String) -> CanonicalUUID.Bits? {
        CanonicalUUID.parse(text.utf8.span).map { CanonicalUUID.Bits(high: $0.high, low: $0.low, uppercase: $0.uppercase) }
    }

    @Test(arguments: [true, false])
    func generatedBitsAreTheParsedText(uppercase: Bool) {
        for _ in 0..<2_000 {
            let (text, bits) = RandomUUID.makeWithBits(uppercase: uppercase)
            #expect(Self.parsed(text) == bits)
            #expect(ApnsID.isCanonicalUUID(text))
            #expect(text == (uppercase ? text.uppercased() : text.lowercased()))
        }
    }

    /// Texts with no letter at all, or one letter at either end of a word, read as `parse` reads them.
    @Test(arguments: [
        (UInt64(0x0123_4567_8901_4234), UInt64(0x8123_4567_8901_2345)),
        (0x0123_4567_8901_4234, 0x8123_4567_8901_234A),
        (0xA123_4567_8901_4234, 0x8123_4567_8901_2345),
        (0x0123_4567_89F1_4234, 0x9999_9999_9999_9999),
        (0x0000_0000_0000_4000, 0x8000_0000_0000_0000),
        (0xFFFF_FFFF_FFFF_4FFF, 0xBFFF_FFFF_FFFF_FFFF),
    ])
    func bitsOfAnyTextAreTheParsedText(high: UInt64, low: UInt64) {
        for uppercase in [true, false] {
            let text = CanonicalUUID.text(high: high, low: low, uppercase: uppercase)
            #expect(Self.parsed(text) == CanonicalUUID.Bits.ofText(high: high, low: low, uppercase: uppercase))
        }
    }
}
