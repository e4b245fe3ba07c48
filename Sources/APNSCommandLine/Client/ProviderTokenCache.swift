import APNSCore
import APNSCrypto

/// Provider tokens per signing key, made once and reused: APNs asks for a token refreshed "no more than once every
/// 20 minutes and no less than once every 60 minutes", and answers 429 TooManyProviderTokenUpdates to a new token
/// more often (A-TOKEN). A token is reused for up to `maximumAge` (50 minutes: well inside the hour, so a push
/// in flight never carries an hour-old token), and replaced at once after 403 ExpiredProviderToken.
///
/// Thread-safe: the connections of `push --connections K` share one cache, so they share one token.
package final class ProviderTokenCache: Sendable {
    package static let defaultMaximumAge = 50.0 * 60

    private struct Entry {
        var token: String
        var issuedAt: Timestamp
    }

    private let signers: [String: ProviderTokenSigner]
    private let entries = Locked<[String: Entry]>([:])
    private let clock: any WallClock
    package let maximumAge: Double

    package init(signers: [ProviderTokenSigner], clock: any WallClock = SystemClock(), maximumAge: Double = ProviderTokenCache.defaultMaximumAge) {
        self.signers = Dictionary(signers.map { (Self.key(teamID: $0.teamID, keyID: $0.keyID), $0) }) { first, _ in first }
        self.clock = clock
        self.maximumAge = maximumAge
    }

    package convenience init(signer: ProviderTokenSigner, clock: any WallClock = SystemClock(), maximumAge: Double = ProviderTokenCache.defaultMaximumAge) {
        self.init(signers: [signer], clock: clock, maximumAge: maximumAge)
    }

    static func key(teamID: String, keyID: String) -> String { "\(teamID)/\(keyID)" }

    /// The current token for the key: the cached one while younger than `maximumAge`, else a new one.
    package func token(teamID: String, keyID: String) throws(CryptoError) -> String {
        let key = Self.key(teamID: teamID, keyID: keyID)
        guard let signer = signers[key] else { throw CryptoError.operationFailed(operation: "provider token", detail: "no signing key \(keyID) for team \(teamID)") }
        let now = clock.now()
        return try entries.withLock { (entries: inout [String: Entry]) throws(CryptoError) -> String in
            if let entry = entries[key], now.secondsSinceEpoch - entry.issuedAt.secondsSinceEpoch < maximumAge,
               entry.issuedAt <= now {
                return entry.token
            }
            // iat in whole seconds (A-TOKEN); the signer rounds down.
            let token = try signer.token(issuedAt: now)
            entries[key] = Entry(token: token, issuedAt: Timestamp(secondsSinceEpoch: now.secondsSinceEpoch.rounded(.down)))
            return token
        }
    }

    /// The only signer's token (the usual case: one key per command).
    package func token() throws(CryptoError) -> String {
        guard let signer = signers.values.first else { throw CryptoError.operationFailed(operation: "provider token", detail: "no signing key") }
        return try token(teamID: signer.teamID, keyID: signer.keyID)
    }

    /// Forgets `token` after APNs refused it as expired (403 ExpiredProviderToken), so the next call makes a new
    /// one; a token already replaced by another thread is left alone.
    package func discard(_ token: String) {
        entries.withLock { entries in
            for (key, entry) in entries where entry.token == token { entries[key] = nil }
        }
    }
}
