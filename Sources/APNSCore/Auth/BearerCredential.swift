/// Reads the provider token out of the `authorization` header.
///
/// Apple documents `authorization: bearer <token>` (A-TOKEN); a2 sends `Bearer` and APNs evidently accepts it, so
/// the scheme is case-insensitive (RFC 9110 §11.1 agrees). A missing or empty header, or another scheme, is
/// `403 MissingProviderToken` (A-RESP: "no provider certificate was used … and the authorization header was missing
/// or no provider token was specified"). Source: A-TOKEN.
enum BearerCredential {
    enum Failure: Error, Equatable {
        case missingHeader
        case emptyHeader
        case notBearer(scheme: String)
        case emptyToken

        var explanation: String {
            switch self {
            case .missingHeader:
                "the request has no authorization header; token-based connections send "
                    + "\"authorization: bearer <JWT>\" on every request"
            case .emptyHeader:
                "the authorization header is empty; send \"authorization: bearer <JWT>\""
            case .notBearer(let scheme):
                "the authorization header uses the scheme \"\(scheme.prefix(20))\"; APNs expects \"bearer <JWT>\" "
                    + "(the JWT itself, signed with ES256)"
            case .emptyToken:
                "the authorization header says \"bearer\" but carries no token after it; send \"bearer <JWT>\""
            }
        }
    }

    /// The token text after `bearer ` in the first `authorization` value (nil: the header is absent).
    static func token(in first: String?) -> Result<Substring, Failure> {
        guard let value = first else { return .failure(.missingHeader) }
        let trimmed = value.drop(while: { $0 == " " || $0 == "\t" })
        guard !trimmed.isEmpty else { return .failure(.emptyHeader) }
        guard let separator = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            if trimmed.lowercased() == "bearer" { return .failure(.emptyToken) }
            return .failure(.notBearer(scheme: String(trimmed)))
        }
        let scheme = trimmed[..<separator]
        guard scheme.lowercased() == "bearer" else { return .failure(.notBearer(scheme: String(scheme))) }
        let token = trimmed[separator...].drop(while: { $0 == " " || $0 == "\t" })
        let end = token.lastIndex(where: { $0 != " " && $0 != "\t" })
        guard let end else { return .failure(.emptyToken) }
        return .success(token[...end])
    }
}
