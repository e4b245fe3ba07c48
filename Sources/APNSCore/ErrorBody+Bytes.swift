import Foundation

extension ErrorBody {
    /// The error body as APNs sends it, `{"reason":"…"}` plus `"timestamp":N` on 410 (A-RESP): the bytes
    /// `JSONEncoder` writes with sorted keys and unescaped slashes, written directly for the reasons APNs uses, so
    /// a rejected push pays for no encoder (it cost more than the rest of the rejection). A reason with anything
    /// but printable ASCII (never one of Apple's; a fault spec may set one) still goes through `JSONEncoder`.
    public var jsonBytes: [UInt8] {
        let plain = reason.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        guard plain else { return encodedBytes }
        var bytes = Array(#"{"reason":""#.utf8)
        bytes.reserveCapacity(bytes.count + reason.utf8.count + 40)
        bytes.append(contentsOf: reason.utf8)
        bytes.append(UInt8(ascii: "\""))
        if let timestamp {
            bytes.append(contentsOf: #","timestamp":"#.utf8)
            bytes.append(contentsOf: String(timestamp).utf8)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The same body through `JSONEncoder`.
    var encodedBytes: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding two plain fields cannot fail; an empty object would still be valid JSON.
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8))
    }
}

extension Reason {
    /// `{"reason":"<this reason>"}`, the error body of a rejection without a timestamp (every status but 410),
    /// written once per reason: a rejected push shares the bytes instead of building them.
    public var errorBodyBytes: [UInt8] {
        for (reason, body) in Self.errorBodies where reason == self { return body }
        return ErrorBody(reason: rawValue).jsonBytes
    }

    /// Every reason with its body (a dictionary would hash the raw value string on every rejected push).
    private static let errorBodies: [(Reason, [UInt8])] = allCases.map { ($0, ErrorBody(reason: $0.rawValue).jsonBytes) }
}
