import APNSCore
import CoreTestSupport
import Testing

@Suite("Provider token parsing: structure, header and claims")
struct ProviderTokenParsingTests {
    static func token(_ header: String, _ claims: String, signature: String = "c2ln") -> String {
        base64URL(header) + "." + base64URL(claims) + "." + signature
    }

    @Test("reads alg, kid, typ, iss and an integer iat; signing input is header.claims as sent")
    func readsFields() throws {
        let text = Self.token(#"{"alg":"ES256","kid":"ABC123DEFG","typ":"JWT"}"#, #"{"iss":"TEAM123456","iat":1700000000}"#)
        let token = try ProviderToken(parsing: text[...])
        #expect(token.algorithm == "ES256")
        #expect(token.keyID == "ABC123DEFG")
        #expect(token.type == "JWT")
        #expect(token.issuer == "TEAM123456")
        #expect(token.issuedAt == .integer(1_700_000_000))
        #expect(token.signature == Array("sig".utf8))
        #expect(String(decoding: token.signingInput, as: UTF8.self) == text.split(separator: ".").prefix(2).joined(separator: "."))
        #expect(token.encoding == .base64URL)
        #expect(token.claimsJSON == #"{"iss":"TEAM123456","iat":1700000000}"#)
    }

    @Test("a repeated header or claim name reads as its last value")
    func duplicateNamesTakeTheLastValue() throws {
        let text = Self.token(#"{"alg":"none","kid":"A","alg":"ES256"}"#, #"{"iss":"X","iss":"TEAM123456"}"#)
        let token = try ProviderToken(parsing: text[...])
        #expect(token.algorithm == "ES256")
        #expect(token.issuer == "TEAM123456")
    }

    @Test("iat as string or float is read with its representation", arguments: [
        (#""1700000000""#, IssuedAt.string("1700000000", seconds: 1_700_000_000)),
        ("1700000000.5", IssuedAt.float(1_700_000_000.5)),
        ("1700000000", IssuedAt.integer(1_700_000_000)),
    ])
    func issuedAtForms(_ json: String, _ expected: IssuedAt) throws {
        let token = try ProviderToken(parsing: Self.token(#"{"alg":"ES256"}"#, #"{"iat":\#(json)}"#)[...])
        #expect(token.issuedAt == expected)
    }

    static let malformed: [(String, ProviderTokenParseError)] = [
        ("a.b", .wrongSegmentCount(2)),
        ("a.b.c.d", .wrongSegmentCount(4)),
        ("", .wrongSegmentCount(1)),
        ("***." + base64URL("{}") + ".c2ln", .segmentNotBase64(segment: "header")),
        (base64URL("{}") + ".%%.c2ln", .segmentNotBase64(segment: "claims")),
        (base64URL("{}") + "." + base64URL("{}") + ".a b", .segmentNotBase64(segment: "signature")),
        (base64URL("[1]") + "." + base64URL("{}") + ".c2ln", .segmentNotJSONObject(segment: "header")),
        (base64URL("{}") + "." + base64URL("not json") + ".c2ln", .segmentNotJSONObject(segment: "claims")),
        (token(#"{"alg":256}"#, "{}"), .claimHasWrongType(name: "header alg", found: "the number 256")),
        (token(#"{"kid":["A"]}"#, "{}"), .claimHasWrongType(name: "header kid", found: "an array")),
        (token("{}", #"{"iss":true}"#), .claimHasWrongType(name: "claim iss", found: "the boolean true")),
        (token("{}", #"{"iat":"yesterday"}"#), .issuedAtNotNumeric("the string \"yesterday\"")),
        (token("{}", #"{"iat":{"s":1}}"#), .issuedAtNotNumeric("an object")),
    ]

    @Test("malformed tokens are refused with the reason named", arguments: malformed)
    func refusesMalformed(_ text: String, _ expected: ProviderTokenParseError) {
        #expect(throws: expected) { try ProviderToken(parsing: text[...]) }
        #expect(!expected.explanation.isEmpty)
    }

    @Test("a token longer than APNs' 8000-byte header list is refused before decoding")
    func refusesOversized() {
        let text = String(repeating: "A", count: 8001)
        #expect(throws: ProviderTokenParseError.tooLong(length: 8001)) { try ProviderToken(parsing: text[...]) }
    }

    @Test("standard Base64 in any segment marks the token as standard Base64 (a2)")
    func standardBase64() throws {
        let header = "eyJhbGciOiJFUzI1NiJ9"  // {"alg":"ES256"}, no padding needed
        let claims = "eyJpc3MiOiJUIn0="  // {"iss":"T"} with padding
        let token = try ProviderToken(parsing: "\(header).\(claims).c2ln"[...])
        #expect(token.encoding == .standardBase64)
        #expect(token.issuer == "T")
    }
}
