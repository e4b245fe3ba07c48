/// A channel's `message-storage-policy`: whether APNs keeps the last message for devices that were offline.
/// Immutable after creation. Source: A-CHAN.
public enum MessageStoragePolicy: Int, Sendable, Codable, Hashable, CaseIterable {
    /// No Message Stored: a higher publishing budget; `apns-expiration` must be 0 on sends (A-BSEND, A-BERR).
    case noMessageStored = 0
    /// Most Recent Message Stored: the last message is kept up to 8 hours (A-CHAN).
    case mostRecentMessageStored = 1
}

/// One broadcast channel as the mock keeps it: an opaque base64 id, the app and environment it belongs to, its
/// storage policy and the Live Activities subscribed to it on the simulated device. Channels are per app and per
/// environment; a deleted id is never valid again. Source: A-CHAN.
public struct BroadcastChannel: Sendable, Codable, Hashable {
    /// The `apns-channel-id`: random bytes in standard base64, never reused (A-CHAN).
    public var id: String
    public var bundleID: String
    public var environment: APNsEnvironment
    public var storagePolicy: MessageStoragePolicy
    public var createdAt: Timestamp
    /// Update tokens of the simulated device's activities started with `input-push-channel` = `id`, in the
    /// order they subscribed.
    public var subscribers: [String]

    public init(
        id: String, bundleID: String, environment: APNsEnvironment, storagePolicy: MessageStoragePolicy,
        createdAt: Timestamp, subscribers: [String] = []
    ) {
        self.id = id
        self.bundleID = bundleID
        self.environment = environment
        self.storagePolicy = storagePolicy
        self.createdAt = createdAt
        self.subscribers = subscribers
    }
}
