/// Why a bearer token is not a well-formed APNs provider token. Every case answers `403 InvalidProviderToken`
/// ("the provider token is not valid", A-RESP); the explanation says what to fix. Source: A-TOKEN.
public enum ProviderTokenParseError: Error, Sendable, Hashable {
    case tooLong(length: Int)
    case wrongSegmentCount(Int)
    case segmentNotBase64(segment: String)
    case segmentNotJSONObject(segment: String)
    case claimHasWrongType(name: String, found: String)
    case issuedAtNotNumeric(String)

    public var explanation: String {
        switch self {
        case .tooLong(let length):
            return "the bearer token is \(length) bytes long; an APNs provider token is a few hundred bytes "
                + "(and the whole header block must fit in APNs' 8000-byte MAX_HEADER_LIST_SIZE): send the JWT only"
        case .wrongSegmentCount(let count):
            return "the bearer token has \(count) dot-separated part\(count == 1 ? "" : "s"); a JWT has three "
                + "(header.claims.signature): sign the token with ES256 and send the compact serialization"
        case .segmentNotBase64(let segment):
            return "the JWT \(segment) is not Base64 (base64url or padded standard Base64): encode each part "
                + "with base64url as RFC 7515 describes"
        case .segmentNotJSONObject(let segment):
            return "the JWT \(segment) does not decode to a JSON object: it must be like "
                + (segment == "header" ? "{\"alg\":\"ES256\",\"kid\":\"KEYID12345\"}" : "{\"iss\":\"TEAMID1234\",\"iat\":1700000000}")
        case .claimHasWrongType(let name, let found):
            return "JWT \(name) is \(found); it must be a string"
        case .issuedAtNotNumeric(let found):
            return "JWT claim iat is \(found); it must be the number of seconds since the Epoch (UTC), "
                + "e.g. \"iat\": 1700000000"
        }
    }
}
