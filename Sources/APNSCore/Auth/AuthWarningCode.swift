/// Warning codes of provider-token authentication: tokens APNs accepts but that a stricter reader, or Apple's
/// documentation, would not (A-TOKEN). Accepted pushes carry them in their delivery record; strict mode may
/// turn any of them into a rejection.
public enum AuthWarningCode: String, Sendable, CaseIterable, Codable {
    /// The JWT's segments use standard Base64 ('+', '/', '=') instead of base64url (RFC 7515); APNs accepts it.
    case standardBase64 = "jwt-standard-base64"
    /// `iat` sent as a JSON string (LIB-kalyke); APNs accepts it, Apple documents a number.
    case issuedAtString = "jwt-iat-string"
    /// `iat` sent with a fraction (LIB-pyapns-client); Apple documents whole seconds.
    case issuedAtFloat = "jwt-iat-float"
    /// `iat` ahead of the server clock by more than the configured threshold; APNs' tolerance is unknown.
    case issuedAtInFuture = "jwt-iat-in-future"
    /// The key's team has no registered bundle IDs, so the topic could not be checked for `TopicDisallowed`.
    case topicUnchecked = "auth-topic-unchecked"
}
