import APNSJSON

/// The keys Apple defines for the `aps` dictionary and the JSON type of each value.
///
/// Source: A-GEN Table 1 (alert … attributes), A-LA (`input-push-token`, `input-push-channel`), A-WIDGET and
/// F-791676 (`content-changed`).
public enum APSKey {
    /// A value type as A-GEN's Table 1 names it.
    public enum ValueType: Sendable {
        case string, number, dictionary, stringOrDictionary, boolOrNumber

        /// Whether `value` has this type. A JSON boolean counts as a number (Objective-C reads both as NSNumber).
        func accepts(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (.string, .string), (.dictionary, .object), (.stringOrDictionary, .string),
                 (.stringOrDictionary, .object):
                return true
            case (.number, .number), (.number, .bool), (.boolOrNumber, .bool), (.boolOrNumber, .number):
                return true
            default:
                return false
            }
        }

        var name: String {
            switch self {
            case .string: return "a string"
            case .number: return "a number"
            case .dictionary: return "a dictionary"
            case .stringOrDictionary: return "a string or a dictionary"
            case .boolOrNumber: return "true or 1"
            }
        }
    }

    public static let known: [String: ValueType] = [
        "alert": .stringOrDictionary,
        "badge": .number,
        "sound": .stringOrDictionary,
        "thread-id": .string,
        "category": .string,
        "content-available": .number,
        "mutable-content": .number,
        "target-content-id": .string,
        "interruption-level": .string,
        "relevance-score": .number,
        "filter-criteria": .string,
        "stale-date": .number,
        "content-state": .dictionary,
        "timestamp": .number,
        "event": .string,
        "dismissal-date": .number,
        "attributes-type": .string,
        "attributes": .dictionary,
        "input-push-token": .number,
        "input-push-channel": .string,
        "content-changed": .boolOrNumber,
    ]

    /// `known[key]`, found without hashing the key: among the known keys of its length in UTF-8 bytes (one to five
    /// of them), compared as strings; a key that matches none (or, spelled with other bytes, is equal to one only
    /// under Unicode's rules) is looked up in `known`.
    public static func valueType(ofKey key: String) -> ValueType? {
        let length = key.utf8.count
        if length < knownByLength.count {
            for entry in knownByLength[length] where entry.key == key { return entry.type }
        }
        return known[key]
    }

    /// `known` by the length of the key in UTF-8 bytes (index).
    private static let knownByLength: [[(key: String, type: ValueType)]] = {
        var table = [[(key: String, type: ValueType)]](
            repeating: [], count: 1 + (known.keys.map(\.utf8.count).max() ?? 0))
        for (key, type) in known.sorted(by: { $0.key < $1.key }) { table[key.utf8.count].append((key, type)) }
        return table
    }()

    /// The Apple key that `key` most likely misspells: the same letters ignoring case, `-` and `_`
    /// (`contentAvailable`), or one edit away (two for keys of 8 letters or more: `state-date`). nil for keys unlike
    /// any Apple key.
    public static func likelyIntended(_ key: String) -> String? {
        let normalized = normalize(key)
        if let match = known.keys.sorted().first(where: { normalize($0) == normalized }) {
            return match
        }
        guard normalized.count >= 4 else { return nil }
        let allowedEdits = normalized.count >= 8 ? 2 : 1
        return known.keys.sorted()
            .map { ($0, EditDistance.between(normalize($0), normalized)) }
            .filter { $0.1 <= allowedEdits }
            .min { $0.1 < $1.1 }?.0
    }

    private static func normalize(_ key: String) -> [Character] {
        Array(key.lowercased().filter { $0 != "-" && $0 != "_" })
    }
}
