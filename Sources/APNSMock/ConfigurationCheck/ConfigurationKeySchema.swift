import APNSCore

/// The keys a configuration file may use, at every level, as `MockConfiguration`'s `Codable` keys spell them.
/// `ConfigurationKeySchemaTests` encodes a configuration with every field set and checks that each key it writes is
/// listed here, so a key added to the Codable types without being added here fails a test instead of being
/// refused in users' files.
indirect enum ConfigurationKeySchema: Sendable {
    /// An object with exactly these keys.
    case object([String: ConfigurationKeySchema])
    /// An array whose elements follow the schema.
    case array(ConfigurationKeySchema)
    /// A string, number, boolean or null.
    case value
    /// Checked by its own decoder (user-chosen names, e.g. the fields of an inline Live Activity schema).
    case open

    static let configuration: ConfigurationKeySchema = .object([
        "environment": .value, "host": .value, "port": .value, "h2cPort": .value, "productionPort": .value,
        "admin": .object(["host": .value, "port": .value, "token": .value]),
        "tls": .object(["certificate": .value, "privateKey": .value, "clientCertificateAuthority": .value]),
        "dataDir": .value, "threads": .value,
        "managePort": .value, "productionManagePort": .value,
        "broadcast": .object(["disabledBundleIDs": .array(.value), "channelLimit": .value]),
        "teams": .array(.object([
            "teamID": .value, "bundleIDs": .array(.value),
            "keys": .array(.object([
                "keyID": .value, "p8": .value, "publicKeyPath": .value, "publicKeyPEM": .value,
                "environment": .value, "topics": .array(.value), "relatedKeyID": .value,
            ])),
        ])),
        "sampleCredentials": .value,
        "authentication": .object([
            "tokenLifetime": .value, "futureIssuedAtTolerance": .value, "futureIssuedAtWarningThreshold": .value,
            "tokenUpdateInterval": .value, "environmentMismatchReason": .value,
        ]),
        "allowUnauthenticated": .value,
        "tokens": .array(.object([
            "token": .value, "bundleID": .value, "kind": .value, "topicSuffix": .value, "environment": .value,
            "state": .value, "stateSince": .value,
        ])),
        "rules": .object(["strict": .array(.value), "strictAll": .value, "nonJSONBody": .value, "undeclaredTokens": .value,
            "tokenOnCertificateConnection": .value]),
        "liveActivities": .object([
            "sources": .array(.value), "schemaFiles": .array(.value), "schemas": .open, "budgetPerHour": .value,
            "frequentUpdates": .value, "issueUpdateTokens": .value, "strict": .value, "timelineLimit": .value,
            "timelineTotalLimit": .value,
            "tokenLimit": .value,
        ]),
        "retention": .object(["maxDeliveries": .value, "maxAgeSeconds": .value]),
        // Each spec is also decoded strictly by `FaultSpec` (exact errors for values and nested keys).
        "scriptedAnswers": .array(.object(Dictionary(
            uniqueKeysWithValues: (FaultSpec.matchKeys + FaultSpec.answerKeys + FaultSpec.actionKeys + FaultSpec.scopeKeys)
                .filter { $0 != "status" }.map { ($0, $0 == "goaway" || $0 == "delayMs" ? .open : .value) }
                + [("status", .value)]))),
        "faults": .object(["acceptDelayMs": .value, "handshakeStallMs": .value, "maxConnections": .value]),
        "limits": .object([
            "handshakeTimeoutSeconds": .value, "idleTimeoutSeconds": .value, "streamTimeoutSeconds": .value,
            "connectionBodyBufferBytes": .value, "totalBodyBufferBytes": .value,
        ]),
    ])

    var keys: [String: ConfigurationKeySchema]? {
        if case .object(let keys) = self { return keys }
        return nil
    }

    /// Every place a key is allowed, as display paths (`admin`, `teams[].keys[]`), for "it belongs in …" hints.
    func paths(of key: String, under prefix: String = "") -> [String] {
        switch self {
        case .object(let keys):
            var found = keys[key] != nil ? [prefix.isEmpty ? "the top level" : prefix] : []
            for (name, child) in keys.sorted(by: { $0.key < $1.key }) {
                found += child.paths(of: key, under: prefix.isEmpty ? name : prefix + "." + name)
            }
            return found
        case .array(let element):
            return element.paths(of: key, under: prefix + "[]")
        case .value, .open:
            return []
        }
    }
}
