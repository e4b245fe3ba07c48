import APNSJSON
import Foundation

/// The mark of an answer produced by fault injection, so a report never takes it for a rule's answer: the fault
/// spec (canonical JSON), its position in the fault list when it fired, what it did, and what the rules would have
/// answered without it.
public struct InjectedFault: Sendable, Hashable, Codable {
    /// The spec as canonical JSON text (keys sorted), e.g. `{"reason":"Unregistered","status":410}`.
    public let faultJSON: String
    /// The spec's position in `GET /api/config/faults` when it fired.
    public let index: Int
    /// `answer`, `resetStream`, `blackHole`, `delay`, `goaway`, `closeConnection`, `maxConcurrentStreams`,
    /// `unregistered`.
    public let effect: String
    /// The rules' answer: `200`, or `410 Unregistered`.
    public let rulesAnswer: String

    public init(faultJSON: String, index: Int, effect: String, rulesAnswer: String) {
        self.faultJSON = faultJSON
        self.index = index
        self.effect = effect
        self.rulesAnswer = rulesAnswer
    }

    enum CodingKeys: String, CodingKey { case fault, index, effect, rulesAnswer }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        faultJSON = try c.decode(JSONValue.self, forKey: .fault).compactText
        index = try c.decode(Int.self, forKey: .index)
        effect = try c.decode(String.self, forKey: .effect)
        rulesAnswer = try c.decode(String.self, forKey: .rulesAnswer)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(JSONValue.parse(Array(faultJSON.utf8)) ?? .object([]), forKey: .fault)
        try c.encode(index, forKey: .index)
        try c.encode(effect, forKey: .effect)
        try c.encode(rulesAnswer, forKey: .rulesAnswer)
    }
}
