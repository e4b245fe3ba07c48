/// An `apns-id` as a timeline entry keeps it: a UUID in its canonical text form (8-4-4-4-12 hex digits, letters
/// all upper or all lower case, as APNs and senders write it, A-SEND) as its 16 bytes, no string allocated per
/// entry; any other text as it is. `text` gives back exactly the text it was made from.
enum CompactAPNsID: Sendable, Hashable {
    case uuid(high: UInt64, low: UInt64, lowercase: Bool)
    case text(String)

    init(_ text: String) {
        var text = text
        self = text.withUTF8 { Self.uuid($0) } ?? .text(text)
    }

    var text: String {
        switch self {
        case .text(let text):
            return text
        case .uuid(let high, let low, let lowercase):
            let digits = Array((lowercase ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
            return String(unsafeUninitializedCapacity: 36) { buffer in
                var position = 0
                for index in 0..<32 {
                    if index == 8 || index == 12 || index == 16 || index == 20 {
                        buffer[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    let word = index < 16 ? high : low
                    let shift = UInt64(60 - 4 * (index % 16))
                    buffer[position] = digits[Int((word >> shift) & 0xF)]
                    position += 1
                }
                return position
            }
        }
    }

    /// The UUID in `bytes` when they are canonical text with letters of one case.
    private static func uuid(_ bytes: UnsafeBufferPointer<UInt8>) -> CompactAPNsID? {
        guard bytes.count == 36 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        var sawUpper = false
        var sawLower = false
        var index = 0
        for (position, byte) in bytes.enumerated() {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"):
                value = byte - UInt8(ascii: "a") + 10
                sawLower = true
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                value = byte - UInt8(ascii: "A") + 10
                sawUpper = true
            default: return nil
            }
            if index < 16 { words.0 = words.0 << 4 | UInt64(value) } else { words.1 = words.1 << 4 | UInt64(value) }
            index += 1
        }
        guard !(sawUpper && sawLower) else { return nil }
        return .uuid(high: words.0, low: words.1, lowercase: sawLower)
    }
}
