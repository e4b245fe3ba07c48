import APNSCore

/// A stand-in for the JWT authenticator, driven by a case's `auth` value: `valid` accepts as team TEAM123456 with
/// key ABC123DEFG, `rejected:<Reason>` refuses with that reason, `none` means no authenticator at all.
package final class TableAuthenticator: ConnectionAuthenticator {
    package static let sender = AuthenticatedSender(
        teamID: "TEAM123456", keyID: "ABC123DEFG", tokenFingerprint: "test-fingerprint",
        headerJSON: #"{"alg":"ES256","kid":"ABC123DEFG"}"#, claimsJSON: #"{"iss":"TEAM123456","iat":1767225600}"#)

    private let decision: AuthDecision
    package private(set) var requests: [AuthRequest] = []

    package init(_ decision: AuthDecision) {
        self.decision = decision
    }

    /// The authenticator for a case's `auth` value; nil for `none`.
    package static func forCase(_ auth: String?) -> TableAuthenticator? {
        let auth = auth ?? "valid"
        if auth == "none" { return nil }
        if auth == "valid" || auth.hasPrefix(ConformanceCertificates.prefix) {
            return TableAuthenticator(.accepted(sender, warnings: []))
        }
        let prefix = "rejected:"
        guard auth.hasPrefix(prefix), let reason = Reason(rawValue: String(auth.dropFirst(prefix.count))) else {
            return nil
        }
        return TableAuthenticator(.rejected(reason, explanation: "table authenticator: \(reason.rawValue)"))
    }

    /// True once this authenticator has accepted a request.
    package private(set) var hasAuthenticated = false

    package func authenticate(_ request: AuthRequest) -> AuthDecision {
        if case .accepted = decision { hasAuthenticated = true }
        requests.append(request)
        return decision
    }
}
