
/// An `apns-id` as a timeline entry keeps it: a UUID in its canonical text form (8-4-4-4-12 hex digits, letters
/// all upper or all lower case, as APNs and senders write it, A-SEND) as its 16 bytes, no string allocated per
/// entry; any other text as it is. `text` gives back exactly the text it was made from.
enum CompactAPNsID: Sendable, Hashable {
    case uuid(high: UInt64, low: UInt64, lowercase: Bool)
    case text(String)

    init(_ text: String) {
        self = Self.uuid(text.utf8.span) ?? .text(text)
    }

    /// `init(text)` when the UUID's bits are known (as `CanonicalUUID.parse` reads them from `text`).
    init(_ text: String, bits: CanonicalUUID.Bits?) {
        guard let bits else {
            self.init(text)
            return
        }
        assert(CompactAPNsID(text) == .uuid(high: bits.high, low: bits.low, lowercase: bits.uppercase == false))
        self = .uuid(high: bits.high, low: bits.low, lowercase: bits.uppercase == false)
    }

    var text: String {
        switch self {
        case .text(let text):
            return text
        case .uuid(let high, let low, let lowercase):
            return CanonicalUUID.text(high: high, low: low, uppercase: !lowercase)
        }
    }

    /// The UUID in `bytes` when they are canonical text with letters of one case.
    private static func uuid(_ bytes: Span<UInt8>) -> CompactAPNsID? {
        CanonicalUUID.parse(bytes).map { .uuid(high: $0.high, low: $0.low, lowercase: $0.uppercase == false) }
    }
}
