/// A rejected request: the APNs reason, a sentence saying what to change, and what was read of the token.
struct AuthRejection: Error, Sendable, Hashable {
    var reason: Reason
    var explanation: String
    /// The token as far as it could be read; nil when the request carried none.
    var token: PresentedToken?

    static func invalid(_ explanation: String) -> AuthRejection {
        AuthRejection(reason: .invalidProviderToken, explanation: explanation)
    }

    /// This rejection, naming the token it refused (unless it already names one).
    func presenting(_ token: PresentedToken) -> AuthRejection {
        var named = self
        named.token = self.token ?? token
        return named
    }
}
