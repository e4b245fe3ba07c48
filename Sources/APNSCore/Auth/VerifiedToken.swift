/// A provider token whose structure, issuer and signature have been checked, with what every later request needs.
/// Time-dependent rules (age, future `iat`) are re-applied on each request.
public struct VerifiedToken: Sendable, Hashable {
    public var teamID: String
    public var keyID: String
    /// The registry revision of the key that verified it.
    public var keyRevision: UInt64
    public var issuedAt: IssuedAt
    /// When the mock first saw this token on any connection: the start of its 20-minute update window.
    public var firstSeen: Timestamp
    public var fingerprint: String
    public var headerJSON: String
    public var claimsJSON: String
    /// Conformance warnings about the token itself (string `iat`, standard Base64).
    public var warnings: [PushWarning]

    var sender: AuthenticatedSender {
        AuthenticatedSender(
            teamID: teamID, keyID: keyID, tokenFingerprint: fingerprint, headerJSON: headerJSON,
            claimsJSON: claimsJSON)
    }

    /// A short non-cryptographic identifier of the token (FNV-1a 64, hex) for records and logs; the token itself
    /// is a credential and is not stored.
    public static func fingerprint(of token: Substring) -> String {
        var token = token
        let hash = token.withUTF8 { utf8 in  // contiguous bytes: no per-byte index arithmetic of Substring.UTF8View
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            return hash
        }
        return String(unsafeUninitializedCapacity: 16) { digits in  // 16 lower-case hex digits, zero-padded
            for position in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: hash >> UInt64(60 - 4 * position)) & 0x0F
                digits[position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 16
        }
    }
}
