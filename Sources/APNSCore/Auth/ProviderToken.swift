import APNSJSON
import Foundation

/// A bearer token split into the parts APNs reads: header `alg`/`kid`/`typ`, claims `iss`/`iat`, the signature
/// and the bytes it signs. Parsing checks structure only; `ProviderTokenAuthenticator` applies APNs' rules.
/// Source: A-TOKEN, tolerances from A-TOKEN.
public struct ProviderToken: Sendable, Hashable {
    /// Longest token accepted: APNs caps the whole header block at 8000 bytes (MAX_HEADER_LIST_SIZE, A-CONN).
    public static let maximumLength = 8000

    /// Header `alg`; APNs supports only `ES256`.
    public var algorithm: String?
    /// Header `kid`: the 10-character Key ID.
    public var keyID: String?
    /// Header `typ` (pushy, node-apn and APNSwift send `JWT`; APNs ignores it).
    public var type: String?
    /// Claim `iss`: the 10-character Team ID.
    public var issuer: String?
    /// Claim `iat`.
    public var issuedAt: IssuedAt?
    /// The decoded header and claims, as sent.
    public var headerJSON: String
    public var claimsJSON: String
    /// The decoded signature: 64 bytes `r||s` (JOSE) or an ASN.1 DER sequence (pushy, a2, `openssl dgst`).
    public var signature: [UInt8]
    /// `header.claims` exactly as sent: the bytes the signature covers.
    public var signingInput: [UInt8]
    /// `.standardBase64` when any segment used the standard alphabet or padding.
    public var encoding: JWTSegmentEncoding

    /// Splits and decodes `token` (the text after `bearer `).
    public init(parsing token: Substring) throws(ProviderTokenParseError) {
        let utf8 = token.utf8
        guard utf8.count <= Self.maximumLength else { throw .tooLong(length: utf8.count) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .wrongSegmentCount(parts.count) }
        guard let header = JWTBase64.decode(parts[0]) else { throw .segmentNotBase64(segment: "header") }
        guard let claims = JWTBase64.decode(parts[1]) else { throw .segmentNotBase64(segment: "claims") }
        guard let signature = JWTBase64.decode(parts[2]) else { throw .segmentNotBase64(segment: "signature") }
        let headerFields = try Self.jsonObject(header.bytes, segment: "header")
        let claimFields = try Self.jsonObject(claims.bytes, segment: "claims")

        algorithm = try Self.string(headerFields["alg"], name: "header alg")
        keyID = try Self.string(headerFields["kid"], name: "header kid")
        type = try Self.string(headerFields["typ"], name: "header typ")
        issuer = try Self.string(claimFields["iss"], name: "claim iss")
        issuedAt = try Self.issuedAt(claimFields["iat"])
        headerJSON = String(decoding: header.bytes, as: UTF8.self)
        claimsJSON = String(decoding: claims.bytes, as: UTF8.self)
        self.signature = signature.bytes
        signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        let encodings = [header.encoding, claims.encoding, signature.encoding]
        encoding = encodings.contains(.standardBase64) ? .standardBase64 : .base64URL
    }

    /// The segment's members. With duplicate names the last one wins, as JWS (RFC 7515) permits and as the mock has
    /// always read tokens; this differs on purpose from payloads, which follow the device's `JSONDecoder` (first wins).
    private static func jsonObject(
        _ bytes: [UInt8], segment: String
    ) throws(ProviderTokenParseError) -> [String: JSONValue] {
        guard let members = JSONValue.parse(bytes)?.members else { throw .segmentNotJSONObject(segment: segment) }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    private static func string(_ value: JSONValue?, name: String) throws(ProviderTokenParseError) -> String? {
        switch value {
        case nil, .null: return nil
        case .string(let text): return text
        case let other?: throw .claimHasWrongType(name: name, found: other.described)
        }
    }

    private static func issuedAt(_ value: JSONValue?) throws(ProviderTokenParseError) -> IssuedAt? {
        switch value {
        case nil, .null:
            return nil
        case let number? where number.int64Value != nil:
            return .integer(number.int64Value ?? 0)
        case let number? where number.doubleValue?.isFinite == true:
            return .float(number.doubleValue ?? 0)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let seconds = Double(trimmed), seconds.isFinite, !trimmed.isEmpty else {
                throw .issuedAtNotNumeric(JSONValue.string(text).described)
            }
            return .string(text, seconds: seconds)
        case let other?:
            throw .issuedAtNotNumeric(other.described)
        }
    }
}
