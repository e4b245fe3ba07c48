/// The `iat` claim as the sender wrote it.
///
/// Apple documents seconds since the Epoch as a number (A-TOKEN). APNSwift (until PR #246) and kalyke send a JSON
/// string and APNs evidently accepts it; pyapns-client sends a float. Both are accepted with a warning.
/// Source: A-TOKEN; LIB-kalyke (string `iat`), LIB-pyapns-client (float `iat`).
public enum IssuedAt: Sendable, Hashable {
    /// `"iat": 1700000000` — what Apple documents.
    case integer(Int64)
    /// `"iat": "1700000000"` — APNSwift before PR #246, kalyke.
    case string(String, seconds: Double)
    /// `"iat": 1700000000.25` — pyapns-client (`time.time()`).
    case float(Double)

    /// Seconds since the Unix epoch.
    public var seconds: Double {
        switch self {
        case .integer(let value): Double(value)
        case .string(_, let seconds): seconds
        case .float(let value): value
        }
    }

    /// The conformance warning for a representation APNs tolerates but does not document, or nil.
    var warning: PushWarning? {
        switch self {
        case .integer:
            nil
        case .string(let text, _):
            PushWarning(
                code: AuthWarningCode.issuedAtString.rawValue,
                message: "JWT claim iat is the JSON string \"\(text)\"; APNs accepts it, but Apple documents a number of "
                    + "seconds since the Epoch and strict JWT libraries reject strings: write \"iat\": \(text)")
        case .float(let value):
            PushWarning(
                code: AuthWarningCode.issuedAtFloat.rawValue,
                message: "JWT claim iat is the fractional number \(value); Apple documents whole seconds since the "
                    + "Epoch: write \"iat\": \(Int64(saturating: value.rounded(.down)))")
        }
    }
}
