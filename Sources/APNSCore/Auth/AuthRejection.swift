/// A rejected request: the APNs reason and a sentence saying what to change.
struct AuthRejection: Error, Sendable, Hashable {
    var reason: Reason
    var explanation: String

    static func invalid(_ explanation: String) -> AuthRejection {
        AuthRejection(reason: .invalidProviderToken, explanation: explanation)
    }
}
