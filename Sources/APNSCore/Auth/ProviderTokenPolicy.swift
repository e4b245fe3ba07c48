/// The tunable parts of provider-token authentication. Defaults follow Apple's documentation where it speaks and
/// are marked where it does not.
public struct ProviderTokenPolicy: Sendable, Hashable, Codable {
    /// A token older than this (seconds since `iat`) is `403 ExpiredProviderToken`. Apple: one hour.
    /// Source: A-TOKEN.
    public var tokenLifetime: Double
    /// A token whose `iat` is further than this in the future is `403 InvalidProviderToken`. Default one hour:
    /// Apple says `iat` "must be no more than one hour from the current time", read symmetrically; APNs' real
    /// tolerance is unknown ([UNKNOWN], A-TOKEN). Lower it to catch sender clocks that run ahead.
    public var futureIssuedAtTolerance: Double
    /// `iat` further than this in the future (but within tolerance) adds the warning `jwt-iat-in-future`.
    public var futureIssuedAtWarningThreshold: Double
    /// A connection that switches to a new token sooner than this after the previous token was first seen gets
    /// `429 TooManyProviderTokenUpdates`. Apple: 20 minutes. 0 turns the rule off.
    /// Source: A-TOKEN, [DTS] F-675879, [OBS] pushy#931.
    public var tokenUpdateInterval: Double
    /// The reason for a key used in the other environment: `BadEnvironmentKeyIdInToken` (Apple's table) or
    /// `BadEnvironmentKeyInToken` (what APNs sends, [OBS] APNSwift PR #229). Source: A-RESP, docs/rules.md choices.
    public var environmentMismatchReason: EnvironmentMismatchSpelling

    public enum EnvironmentMismatchSpelling: String, Sendable, Hashable, Codable {
        /// `BadEnvironmentKeyIdInToken`, as Apple documents it.
        case documented
        /// `BadEnvironmentKeyInToken`, as observed on the wire.
        case observed

        public var reason: Reason {
            switch self {
            case .documented: .badEnvironmentKeyIdInToken
            case .observed: .badEnvironmentKeyInToken
            }
        }
    }

    public init(
        tokenLifetime: Double = 3600, futureIssuedAtTolerance: Double = 3600,
        futureIssuedAtWarningThreshold: Double = 60, tokenUpdateInterval: Double = 1200,
        environmentMismatchReason: EnvironmentMismatchSpelling = .documented
    ) {
        self.tokenLifetime = tokenLifetime
        self.futureIssuedAtTolerance = futureIssuedAtTolerance
        self.futureIssuedAtWarningThreshold = futureIssuedAtWarningThreshold
        self.tokenUpdateInterval = tokenUpdateInterval
        self.environmentMismatchReason = environmentMismatchReason
    }
}

extension ProviderTokenPolicy {
    /// Decodes a partial policy: absent fields keep their defaults.
    public init(from decoder: any Decoder) throws {
        let defaults = ProviderTokenPolicy()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            tokenLifetime: try container.decodeIfPresent(Double.self, forKey: .tokenLifetime)
                ?? defaults.tokenLifetime,
            futureIssuedAtTolerance: try container.decodeIfPresent(Double.self, forKey: .futureIssuedAtTolerance)
                ?? defaults.futureIssuedAtTolerance,
            futureIssuedAtWarningThreshold: try container.decodeIfPresent(
                Double.self, forKey: .futureIssuedAtWarningThreshold) ?? defaults.futureIssuedAtWarningThreshold,
            tokenUpdateInterval: try container.decodeIfPresent(Double.self, forKey: .tokenUpdateInterval)
                ?? defaults.tokenUpdateInterval,
            environmentMismatchReason: try container.decodeIfPresent(
                EnvironmentMismatchSpelling.self, forKey: .environmentMismatchReason)
                ?? defaults.environmentMismatchReason)
    }
}
