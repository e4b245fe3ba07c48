/// The key registry as written in the server's JSON configuration, before any key file is read.
///
/// ```json
/// { "teams": [ { "teamID": "TEAM123456", "bundleIDs": ["com.example.app"],
///                "keys": [ { "keyID": "ABC123DEFG", "p8": "certs/AuthKey_ABC123DEFG.p8", "environment": "both" } ] } ] }
/// ```
/// APNSCrypto's `SigningKeyRegistry(configuration:relativeTo:)` turns it into a registry.
public struct KeyRegistryConfiguration: Sendable, Hashable, Codable {
    public var teams: [Team]

    public struct Team: Sendable, Hashable, Codable {
        public var teamID: String
        /// Bundle IDs the team's team-scoped keys may push to. Empty or absent: topics are not checked.
        public var bundleIDs: [String]?
        public var keys: [Key]?

        public init(teamID: String, bundleIDs: [String]? = nil, keys: [Key]? = nil) {
            self.teamID = teamID
            self.bundleIDs = bundleIDs
            self.keys = keys
        }
    }

    /// One key; exactly one of `p8`, `publicKeyPath`, `publicKeyPEM` gives the key material.
    public struct Key: Sendable, Hashable, Codable {
        public var keyID: String
        /// Path of the `.p8` (PKCS#8 PEM private key) Apple issued; only its public key is kept.
        public var p8: String?
        /// Path of a PEM public key (`-----BEGIN PUBLIC KEY-----`).
        public var publicKeyPath: String?
        /// A PEM public key inline.
        public var publicKeyPEM: String?
        /// Default `both` (a pre-2025 key, valid in both environments).
        public var environment: KeyEnvironmentScope?
        /// Bundle IDs of a topic-specific key; absent for a team-scoped key.
        public var topics: [String]?
        /// The one related key of a topic-specific key.
        public var relatedKeyID: String?

        public init(
            keyID: String, p8: String? = nil, publicKeyPath: String? = nil, publicKeyPEM: String? = nil,
            environment: KeyEnvironmentScope? = nil, topics: [String]? = nil, relatedKeyID: String? = nil
        ) {
            self.keyID = keyID
            self.p8 = p8
            self.publicKeyPath = publicKeyPath
            self.publicKeyPEM = publicKeyPEM
            self.environment = environment
            self.topics = topics
            self.relatedKeyID = relatedKeyID
        }
    }

    public init(teams: [Team] = []) {
        self.teams = teams
    }

    /// Adds the quick-start CLI flags: each `--key` becomes a key valid in both environments, each `--topic` a
    /// bundle ID of its team.
    public mutating func add(keyFlags: [KeyFlag], topicFlags: [TopicFlag]) {
        for flag in keyFlags {
            let key = Key(keyID: flag.keyID, p8: flag.path)
            mutateTeam(flag.teamID) { $0.keys = ($0.keys ?? []) + [key] }
        }
        for flag in topicFlags {
            mutateTeam(flag.teamID) { team in
                if !(team.bundleIDs ?? []).contains(flag.bundleID) { team.bundleIDs = (team.bundleIDs ?? []) + [flag.bundleID] }
            }
        }
    }

    private mutating func mutateTeam(_ teamID: String, _ change: (inout Team) -> Void) {
        if let index = teams.firstIndex(where: { $0.teamID == teamID }) {
            change(&teams[index])
        } else {
            var team = Team(teamID: teamID)
            change(&team)
            teams.append(team)
        }
    }
}

/// `--key TEAMID:KEYID:path/to/AuthKey_KEYID.p8` (the path may itself contain colons).
public struct KeyFlag: Sendable, Hashable {
    public var teamID: String
    public var keyID: String
    public var path: String

    public init(parsing text: String) throws(KeyRegistryError) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[2].isEmpty else { throw .malformedKeyFlag(text) }
        guard AppleIdentifier.isValid(String(parts[0])) else { throw .invalidTeamID(String(parts[0])) }
        guard AppleIdentifier.isValid(String(parts[1])) else { throw .invalidKeyID(String(parts[1])) }
        teamID = String(parts[0])
        keyID = String(parts[1])
        path = String(parts[2])
    }
}

/// `--topic TEAMID:BUNDLEID`: a bundle ID of the team.
public struct TopicFlag: Sendable, Hashable {
    public var teamID: String
    public var bundleID: String

    public init(parsing text: String) throws(KeyRegistryError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, !parts[1].contains(" ") else { throw .malformedTopicFlag(text) }
        guard AppleIdentifier.isValid(String(parts[0])) else { throw .invalidTeamID(String(parts[0])) }
        teamID = String(parts[0])
        bundleID = String(parts[1])
    }
}
