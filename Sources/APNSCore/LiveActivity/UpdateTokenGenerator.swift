/// Per-activity update tokens the mock hands out after a push-to-start: 80 random bytes as 160 lower-case hex
/// characters, the length observed for Live Activity tokens (F-712499, A-REG).
public enum UpdateTokenGenerator {
    public static let byteCount = 80

    @Sendable public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex((0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}
