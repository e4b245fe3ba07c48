/// The alphabet a JWT segment was written in.
///
/// RFC 7515 asks for base64url without padding; a2 (Rust) has sent padded standard Base64 since 2018 and APNs
/// evidently accepts it, so both decode. Source: [INFER] A-TOKEN.
public enum JWTSegmentEncoding: String, Sendable, Hashable, Codable {
    /// `-` and `_`, no `=` padding (RFC 7515 §2).
    case base64URL
    /// `+` and `/` and/or `=` padding (RFC 4648 §4), as a2 sends.
    case standardBase64
}

/// Decodes one JWT segment written in either alphabet. Pure Swift so that it is cheap and safe on arbitrary input.
public enum JWTBase64 {
    /// The decoded bytes and the alphabet seen, or nil when the text is not Base64 in one consistent alphabet
    /// (a stray character, `=` before the end, more than two `=`, padding to a length that is not a multiple of
    /// four, or a length that leaves a single dangling character).
    public static func decode(_ text: Substring) -> (bytes: [UInt8], encoding: JWTSegmentEncoding)? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3 / 4)
        var sawURLAlphabet = false
        var sawStandardAlphabet = false
        var padding = 0
        var accumulator: UInt32 = 0
        var bitCount = 0
        var symbolCount = 0
        for character in text.utf8 {
            if character == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            if padding > 0 { return nil }
            let value: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): value = 62; sawURLAlphabet = true
            case UInt8(ascii: "_"): value = 63; sawURLAlphabet = true
            case UInt8(ascii: "+"): value = 62; sawStandardAlphabet = true
            case UInt8(ascii: "/"): value = 63; sawStandardAlphabet = true
            default: return nil
            }
            symbolCount += 1
            accumulator = (accumulator << 6) | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
                accumulator &= (1 << UInt32(bitCount)) - 1
            }
        }
        if sawURLAlphabet && (sawStandardAlphabet || padding > 0) { return nil }
        if symbolCount % 4 == 1 || padding > 2 { return nil }
        if padding > 0 && (symbolCount + padding) % 4 != 0 { return nil }
        let standard = sawStandardAlphabet || padding > 0
        return (bytes, standard ? .standardBase64 : .base64URL)
    }

    /// base64url without padding, as RFC 7515 writes JWT segments.
    public static func encodeURL(_ bytes: some Sequence<UInt8>) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        var accumulator: UInt32 = 0
        var bitCount = 0
        for byte in bytes {
            accumulator = (accumulator << 8) | UInt32(byte)
            bitCount += 8
            while bitCount >= 6 {
                bitCount -= 6
                output.append(alphabet[Int((accumulator >> UInt32(bitCount)) & 0x3F)])
            }
            accumulator &= (1 << UInt32(bitCount)) - 1
        }
        if bitCount > 0 {
            output.append(alphabet[Int((accumulator << UInt32(6 - bitCount)) & 0x3F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
