/// A minimal DER reader for the small structures inside Apple's provider-certificate extensions: one element is
/// a tag and its contents; constructed elements (SEQUENCE) are read into their children. Definite lengths only
/// (DER forbids others); anything malformed reads as nil.
public struct DERElement: Sendable, Hashable {
    public static let utf8StringTag: UInt8 = 0x0C
    public static let sequenceTag: UInt8 = 0x30
    public static let nullTag: UInt8 = 0x05

    public var tag: UInt8
    public var contents: [UInt8]

    /// Every element of `bytes`, in order; nil when the bytes are not a whole number of well-formed elements.
    public static func elements(_ bytes: [UInt8]) -> [DERElement]? {
        var elements: [DERElement] = []
        var index = 0
        while index < bytes.count {
            guard index + 2 <= bytes.count else { return nil }
            let tag = bytes[index]
            var length = Int(bytes[index + 1])
            index += 2
            if length & 0x80 != 0 {
                let octets = length & 0x7F
                guard (1...3).contains(octets), index + octets <= bytes.count else { return nil }
                length = bytes[index..<index + octets].reduce(0) { $0 << 8 | Int($1) }
                index += octets
            }
            guard index + length <= bytes.count else { return nil }
            elements.append(DERElement(tag: tag, contents: Array(bytes[index..<index + length])))
            index += length
        }
        return elements
    }

    /// The children of a SEQUENCE; nil for another tag or malformed contents.
    public var sequenceChildren: [DERElement]? {
        tag == Self.sequenceTag ? Self.elements(contents) : nil
    }

    /// The text of a UTF8String; nil for another tag or invalid UTF-8.
    public var utf8String: String? {
        guard tag == Self.utf8StringTag else { return nil }
        return String(validating: contents, as: UTF8.self)
    }

    /// DER for this element (the writer side, used to issue test certificates).
    public var encoded: [UInt8] {
        var length: [UInt8]
        if contents.count < 0x80 {
            length = [UInt8(contents.count)]
        } else {
            var octets: [UInt8] = []
            var remaining = contents.count
            while remaining > 0 {
                octets.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            length = [0x80 | UInt8(octets.count)] + octets
        }
        return [tag] + length + contents
    }

    public static func utf8String(_ text: String) -> DERElement {
        DERElement(tag: utf8StringTag, contents: Array(text.utf8))
    }

    public static func sequence(_ children: [DERElement]) -> DERElement {
        DERElement(tag: sequenceTag, contents: children.flatMap(\.encoded))
    }

    public static let null = DERElement(tag: nullTag, contents: [])
}
