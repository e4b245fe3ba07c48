import Foundation
import Synchronization

/// Every broadcast channel the mock has created, per app and environment, and the ids deleted (which stay
/// invalid forever: A-CHAN). Thread-safe; shared by the management listener, the push listeners and the admin
/// API. Persisted by the server as `ChannelRegistry.Snapshot` (`channels.json` in the data directory).
public final class ChannelRegistry: Sendable {
    /// What is saved and restored.
    public struct Snapshot: Sendable, Codable, Hashable {
        public var channels: [BroadcastChannel]
        public var deletedIDs: [String]

        public init(channels: [BroadcastChannel] = [], deletedIDs: [String] = []) {
            self.channels = channels
            self.deletedIDs = deletedIDs
        }
    }

    private let state: Locked<Snapshot>
    private let makeID: @Sendable () -> String
    /// How many channels are live, changed under the lock with them: `isEmpty`, read for every applied Live
    /// Activity push by both event loops, takes no lock (a lock shared by the loops is a cache line both write).
    private let liveCount: Atomic<Int>

    public init(_ snapshot: Snapshot = Snapshot(), makeID: @escaping @Sendable () -> String = ChannelRegistry.randomID) {
        liveCount = Atomic(snapshot.channels.count)
        state = Locked(snapshot)
        self.makeID = makeID
    }

    /// 16 random bytes in standard base64 (Apple's ids are opaque base64 strings of unstated length: A-CHAN).
    public static func randomID() -> String {
        Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
    }

    /// Creates a channel unless the app already has `limit` channels in `environment` (then nil).
    public func create(
        bundleID: String, environment: APNsEnvironment, policy: MessageStoragePolicy, limit: Int, now: Timestamp
    ) -> BroadcastChannel? {
        state.withLock { snapshot in
            let count = snapshot.channels.count { $0.bundleID == bundleID && $0.environment == environment }
            guard count < limit else { return nil }
            var id = makeID()
            var attempts = 0
            while attempts < 8, snapshot.channels.contains(where: { $0.id == id }) || snapshot.deletedIDs.contains(id) {
                id = makeID()
                attempts += 1
            }
            let channel = BroadcastChannel(
                id: id, bundleID: bundleID, environment: environment, storagePolicy: policy, createdAt: now)
            snapshot.channels.append(channel)
            liveCount.store(snapshot.channels.count, ordering: .releasing)
            return channel
        }
    }

    /// The live channel with this id, for this app and environment (a channel of another app or environment is
    /// not found: A-CHAN).
    public func channel(id: String, bundleID: String, environment: APNsEnvironment) -> BroadcastChannel? {
        state.withLock { snapshot in
            snapshot.channels.first { $0.id == id && $0.bundleID == bundleID && $0.environment == environment }
        }
    }

    /// Whether no channel is live (deleted ones aside).
    public var isEmpty: Bool { liveCount.load(ordering: .acquiring) == 0 }

    /// The live channel with this id, whatever its app (the device side knows only the id).
    public func channel(id: String) -> BroadcastChannel? {
        state.withLock { $0.channels.first { $0.id == id } }
    }

    /// Deletes the channel; false when there was none. Its id is remembered as deleted.
    @discardableResult
    public func delete(id: String, bundleID: String, environment: APNsEnvironment) -> Bool {
        state.withLock { snapshot in
            guard let index = snapshot.channels.firstIndex(where: {
                $0.id == id && $0.bundleID == bundleID && $0.environment == environment
            }) else { return false }
            snapshot.channels.remove(at: index)
            liveCount.store(snapshot.channels.count, ordering: .releasing)
            snapshot.deletedIDs.append(id)
            return true
        }
    }

    public func wasDeleted(id: String) -> Bool {
        state.withLock { $0.deletedIDs.contains(id) }
    }

    /// The app's channels in `environment`, in creation order.
    public func channels(bundleID: String, environment: APNsEnvironment) -> [BroadcastChannel] {
        state.withLock { $0.channels.filter { $0.bundleID == bundleID && $0.environment == environment } }
    }

    /// At most `limit` live channels from `position` on, in creation order (the channels' arrays are shared with the
    /// registry, not copied, while the lock is held).
    public func channels(from position: Int, limit: Int) -> Page {
        state.withLock { snapshot in
            let start = min(max(position, 0), snapshot.channels.count)
            let end = start + min(max(limit, 0), snapshot.channels.count - start)
            return Page(
                channels: Array(snapshot.channels[start..<end]), next: end < snapshot.channels.count ? end : nil,
                total: snapshot.channels.count)
        }
    }

    /// One page of channels (`channels(from:limit:)`).
    public struct Page: Sendable {
        public var channels: [BroadcastChannel] = []
        /// Where the next page starts; nil on the last page.
        public var next: Int?
        public var total = 0

        public init(channels: [BroadcastChannel] = [], next: Int? = nil, total: Int = 0) {
            self.channels = channels
            self.next = next
            self.total = total
        }
    }

    /// Every live channel, in creation order.
    public var allChannels: [BroadcastChannel] { state.withLock { $0.channels } }

    /// Subscribes an activity (its update token) to a live channel; false when the channel does not exist.
    @discardableResult
    public func subscribe(activityToken: String, to channelID: String) -> Bool {
        state.withLock { snapshot in
            guard let index = snapshot.channels.firstIndex(where: { $0.id == channelID }) else { return false }
            let token = activityToken.lowercased()
            if !snapshot.channels[index].subscribers.contains(token) {
                snapshot.channels[index].subscribers.append(token)
            }
            return true
        }
    }

    public var snapshot: Snapshot { state.withLock { $0 } }

    /// Forgets every channel and deleted id.
    public func reset() {
        state.withLock {
            $0 = Snapshot()
            liveCount.store(0, ordering: .releasing)
        }
    }
}
