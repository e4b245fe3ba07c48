import APNSJSON
import Foundation

/// Reads a provider token summary whose `header` and `claims` are either JSON text (the stored form) or JSON
/// objects (the admin API's form, `jsonBytes(providerTokenAsObjects: true)`), so the command-line client reads
/// both.
extension ProviderTokenSummary {
    private enum Keys: String, CodingKey { case header, claims, fingerprint }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        self.init(
            header: try Self.text(container, .header), claims: try Self.text(container, .claims),
            fingerprint: try container.decode(String.self, forKey: .fingerprint))
    }

    private static func text(_ container: KeyedDecodingContainer<Keys>, _ key: Keys) throws -> String? {
        if let text = try? container.decodeIfPresent(String.self, forKey: key) { return text }
        guard let value = try container.decodeIfPresent(JSONValue.self, forKey: key) else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
