/// A configuration mistake in the key registry, with the fix.
public enum KeyRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidTeamID(String)
    case invalidKeyID(String)
    case emptyTopicList(keyID: String)
    case malformedKeyFlag(String)
    case malformedTopicFlag(String)
    case keySourceMissing(keyID: String)
    case keySourceAmbiguous(keyID: String)
    case unreadableKey(keyID: String, detail: String)

    public var description: String {
        switch self {
        case .invalidTeamID(let value):
            "Team ID \"\(value)\" is not ten upper-case letters or digits (find yours under Membership in the "
                + "Apple Developer account)"
        case .invalidKeyID(let value):
            "Key ID \"\(value)\" is not ten upper-case letters or digits (it is the KEYID in AuthKey_KEYID.p8)"
        case .emptyTopicList(let keyID):
            "key \(keyID) has an empty topic list; omit \"topics\" for a team-scoped key or list its bundle IDs"
        case .malformedKeyFlag(let value):
            "--key \"\(value)\" is not TEAMID:KEYID:path/to/AuthKey_KEYID.p8"
        case .malformedTopicFlag(let value):
            "--topic \"\(value)\" is not TEAMID:BUNDLEID (e.g. TEAM123456:com.example.app)"
        case .keySourceMissing(let keyID):
            "key \(keyID) names no key material: give exactly one of \"p8\", \"publicKeyPath\" or \"publicKeyPEM\""
        case .keySourceAmbiguous(let keyID):
            "key \(keyID) names more than one of \"p8\", \"publicKeyPath\", \"publicKeyPEM\": keep exactly one"
        case .unreadableKey(let keyID, let detail):
            "key \(keyID): \(detail)"
        }
    }
}
