import Foundation

/// How `iat` is written in a provider token's claims. JSON parsers blur 17e8, 1.7e9 and 1700000000, so the raw
/// text decides.
package enum IssuedAtForm: String, Sendable, Equatable {
    case integer, float, string, missing, other
}

package enum ClaimText {
    /// The raw JSON text of the value of `key` in a flat JSON object, or nil.
    static func rawValue(_ key: String, in json: String) -> Substring? {
        guard let keyRange = json.range(of: "\"\(key)\"") else { return nil }
        var index = keyRange.upperBound
        while index < json.endIndex, json[index] == " " || json[index] == ":" { index = json.index(after: index) }
        guard index < json.endIndex else { return nil }
        if json[index] == "\"" {
            guard let close = json[json.index(after: index)...].firstIndex(of: "\"") else { return nil }
            return json[index...close]
        }
        let end = json[index...].firstIndex { $0 == "," || $0 == "}" || $0 == " " } ?? json.endIndex
        return json[index..<end]
    }

    package static func issuedAtForm(_ claims: String?) -> IssuedAtForm {
        guard let claims, let raw = rawValue("iat", in: claims) else { return .missing }
        if raw.hasPrefix("\"") { return .string }
        if raw.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) { return .integer }
        if Double(raw) != nil { return .float }
        return .other
    }

    /// `iat` in seconds whichever way it was written.
    package static func issuedAt(_ claims: String?) -> Double? {
        guard let claims, let raw = rawValue("iat", in: claims) else { return nil }
        return Double(raw.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
    }

    package static func string(_ key: String, _ json: String?) -> String? {
        guard let json, let raw = rawValue(key, in: json), raw.hasPrefix("\"") else { return nil }
        return String(raw.dropFirst().dropLast())
    }
}
