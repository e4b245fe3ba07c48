/// A provider-token signing key as APNs knows it: who owns it, where it may be used, and how to check its
/// signatures. Holds the public key only.
///
/// Team-scoped keys (`topics == nil`) push to every topic of their team; topic-specific keys push only to their
/// topics and may have one related key in the same environment. Source: A-TOKEN.
public struct SigningKey: Sendable {
    /// 10-character Team ID (the token's `iss`).
    public var teamID: String
    /// 10-character Key ID (the token's `kid`).
    public var keyID: String
    public var environment: KeyEnvironmentScope
    /// Bundle IDs a topic-specific key may push to; nil for a team-scoped key.
    public var topics: Set<String>?
    /// For a topic-specific key: the one key whose tokens may share its connections.
    public var relatedKeyID: String?
    public var verifier: any ES256Verifier

    public init(
        teamID: String, keyID: String, environment: KeyEnvironmentScope = .both, topics: Set<String>? = nil,
        relatedKeyID: String? = nil, verifier: any ES256Verifier
    ) throws(KeyRegistryError) {
        guard AppleIdentifier.isValid(teamID) else { throw .invalidTeamID(teamID) }
        guard AppleIdentifier.isValid(keyID) else { throw .invalidKeyID(keyID) }
        if let relatedKeyID, !AppleIdentifier.isValid(relatedKeyID) { throw .invalidKeyID(relatedKeyID) }
        if let topics, topics.isEmpty { throw .emptyTopicList(keyID: keyID) }
        self.teamID = teamID
        self.keyID = keyID
        self.environment = environment
        self.topics = topics
        self.relatedKeyID = relatedKeyID
        self.verifier = verifier
    }

    /// Whether tokens of `other` may follow tokens of this key on one connection (same team assumed).
    /// Team-scoped keys relate to every team-scoped key of the team; a topic-specific key relates only to itself
    /// and its related key. Source: A-TOKEN connection rules.
    public func isRelated(to other: SigningKey) -> Bool {
        if keyID == other.keyID { return true }
        switch (topics, other.topics) {
        case (nil, nil): return true
        case (.some, .some): return relatedKeyID == other.keyID || other.relatedKeyID == keyID
        default: return false
        }
    }

    /// What the admin API and logs may show.
    public var summary: SigningKeySummary {
        SigningKeySummary(
            teamID: teamID, keyID: keyID, environment: environment, topics: topics.map { $0.sorted() },
            relatedKeyID: relatedKeyID, publicKeyFingerprint: verifier.publicKeyFingerprint)
    }
}

/// A signing key without its verifier, for listings.
public struct SigningKeySummary: Sendable, Hashable, Codable {
    public var teamID: String
    public var keyID: String
    public var environment: KeyEnvironmentScope
    public var topics: [String]?
    public var relatedKeyID: String?
    public var publicKeyFingerprint: String
}

/// Apple's Team IDs and Key IDs: ten upper-case letters or digits. Source: A-TOKEN ("10-character").
public enum AppleIdentifier {
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }

    /// A fresh random identifier in Apple's format, for generated test keys.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    public static func random(using generator: inout some RandomNumberGenerator) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<10).map { _ in alphabet.randomElement(using: &generator)! })
    }
}
