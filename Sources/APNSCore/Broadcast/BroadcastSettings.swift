/// What a user can change about broadcast push: which apps have the capability and the channel limit.
/// The `broadcast` object of the configuration file (docs/broadcast.md).
public struct BroadcastSettings: Sendable, Codable, Hashable {
    /// Bundle IDs whose broadcast capability is off: every channel or send request for them is answered
    /// `400 FeatureNotEnabled` (A-BERR; the capability is switched on in the developer portal: A-BSETUP).
    public var disabledBundleIDs: [String] = []
    /// Channels per app per environment before a create is answered `400 CannotCreateChannelConfig`
    /// (10,000 at Apple: A-CHAN, A-BERR).
    public var channelLimit: Int = 10_000

    public init(disabledBundleIDs: [String] = [], channelLimit: Int = 10_000) {
        self.disabledBundleIDs = disabledBundleIDs
        self.channelLimit = channelLimit
    }

    public func isEnabled(for bundleID: String) -> Bool { !disabledBundleIDs.contains(bundleID) }
}
