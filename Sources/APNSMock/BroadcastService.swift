import APNSCore
import APNSJSON
import APNSStore
import Foundation

/// Broadcast push (iOS 18) in the running mock: the channel registry, the broadcast rules, the channel-management
/// listener's requests, broadcast sends on the push listeners and their fan-out to the activities the simulated
/// device subscribed with `input-push-channel`. Sources: A-CHAN, A-BSEND, A-BERR, A-LA; docs/broadcast.md.
final class BroadcastService: Sendable {
    let channels: ChannelRegistry
    let decider: BroadcastDecider
    let device: LiveActivityDevice
    let recorder: DeliveryRecorder
    let clock: any WallClock
    /// `channels.json` in the data directory; nil keeps channels in memory only.
    let statePath: String?
    /// Serializes saves: each takes its snapshot under the lock, so the last file written is the newest state.
    private let saving = Locked(())

    /// The file name of the saved channels in the data directory.
    static let savedFileName = "channels.json"
    /// Listener labels of the management listeners: this prefix plus the environment's raw value.
    static let managementLabelPrefix = "manage-"

    init(
        settings: BroadcastSettings, device: LiveActivityDevice, recorder: DeliveryRecorder, clock: any WallClock,
        dataDir: String?
    ) {
        statePath = dataDir.map { URL(fileURLWithPath: $0).appendingPathComponent(Self.savedFileName).path }
        channels = ChannelRegistry(Self.restore(from: statePath))
        decider = BroadcastDecider(settings: settings, channels: channels)
        self.device = device
        self.recorder = recorder
        self.clock = clock
    }

    /// The environment a management listener stands for, or nil when the connection came to a push listener.
    static func managementEnvironment(_ connection: ConnectionInfo) -> APNsEnvironment? {
        guard connection.listenerLabel.hasPrefix(managementLabelPrefix) else { return nil }
        return APNsEnvironment(rawValue: String(connection.listenerLabel.dropFirst(managementLabelPrefix.count)))
    }

    // MARK: - Requests

    /// A request on the management listener: judged, carried out, recorded, answered once recorded.
    func handleManagement(
        _ request: HTTPRequest, environment: APNsEnvironment, authenticator: (any ConnectionAuthenticator)?,
        sink: ResponseSink
    ) {
        let started = DispatchTime.now().uptimeNanoseconds
        let answer = decider.manage(request, environment: environment, authenticator: authenticator, now: clock.now())
        if answer.isAccepted, answer.operation == .createChannel || answer.operation == .deleteChannel { save() }
        finish(request, answer: answer, fanOut: nil, started: started, sink: sink)
    }

    /// A request on a push listener: false when it is not a broadcast (`/4/broadcasts/…`), else judged, fanned
    /// out to the subscribed activities, recorded and answered.
    func handleSend(
        _ request: HTTPRequest, authenticator: (any ConnectionAuthenticator)?, sink: ResponseSink
    ) -> Bool {
        // A device push (every path but /4/broadcasts/…) leaves before the two clock reads a send needs.
        guard BroadcastRoute.isBroadcastPath(request.path) else { return false }
        let started = DispatchTime.now().uptimeNanoseconds
        let now = clock.now()
        guard let answer = decider.send(
            request, environment: request.connection.environment, authenticator: authenticator, now: now)
        else { return false }
        let fanOut = answer.isAccepted ? deliver(request, answer: answer, now: now) : nil
        finish(request, answer: answer, fanOut: fanOut, started: started, sink: sink)
        return true
    }

    /// An accepted broadcast reaches every activity subscribed to the channel, each judged by the device as a
    /// device-token push would be (timestamps, budget, schemas), with the send's request id in its timeline.
    /// A `start` reaches nobody: a broadcast cannot start an activity (A-LA).
    func deliver(_ request: HTTPRequest, answer: BroadcastAnswer, now: Timestamp) -> BroadcastFanOut {
        guard let channel = answer.channel else { return BroadcastFanOut(channelID: "", deliveries: [], startRefused: false) }
        if answer.payload?["aps"]?["event"]?.stringValue == "start" {
            return BroadcastFanOut(channelID: channel.id, deliveries: [], startRefused: true)
        }
        let priority = request.value("apns-priority").flatMap(Int.init) ?? 10
        let deliveries = channel.subscribers.map { token in
            let result = device.receive(
                LiveActivityPush(
                    deviceToken: token, topic: channel.bundleID + ".push-type.liveactivity", priority: priority,
                    apnsID: answer.requestID, payload: request.body, parsedPayload: answer.payload),
                now: now)
            return BroadcastFanOut.Delivery(
                activityToken: token, outcome: result.outcome.rawValue, explanation: result.explanation)
        }
        return BroadcastFanOut(channelID: channel.id, deliveries: deliveries, startRefused: false)
    }

    /// After a device push was answered: an accepted push-to-start whose `aps.input-push-channel` names a live
    /// channel subscribes the activity it started (A-LA, A-BSEND). `deviceOutcome` is the record's, lent as it is
    /// (its code taken out of it for the call copied both its strings and destroyed the explanation again).
    func noteDevicePush(_ request: HTTPRequest, deviceOutcome: LiveActivityDeviceOutcome?, apnsID: String) {
        guard deviceOutcome?.code == LiveActivityOutcome.applied.rawValue, !channels.isEmpty,
              request.value("apns-push-type")?.lowercased() == "liveactivity",
              Self.mayName(Self.inputPushChannelKey, in: request.body),
              let aps = JSONValue.parse(request.body)?["aps"], aps["event"]?.stringValue == "start",
              let channelID = aps["input-push-channel"]?.stringValue,
              let channel = channels.channel(id: channelID), channel.environment == request.connection.environment
        else { return }
        // The activity this push started: among the device's newest changes, not a copy of every activity.
        guard let token = device.recentActivityToken(apnsID: apnsID) else { return }
        if channels.subscribe(activityToken: token, to: channelID) { save() }
    }

    private static let inputPushChannelKey = Array("input-push-channel".utf8)

    /// False only when `body` certainly has no key `key`: it holds neither the key's bytes nor a `\` (an escape
    /// could spell the key otherwise). Spares the second parse of every Live Activity update that subscribes to
    /// nothing.
    static func mayName(_ key: [UInt8], in body: [UInt8]) -> Bool {
        if body.contains(UInt8(ascii: "\\")) { return true }
        guard body.count >= key.count else { return false }
        for start in 0...(body.count - key.count) where body[start] == key[0] {
            if body[start..<(start + key.count)].elementsEqual(key) { return true }
        }
        return false
    }

    private func finish(
        _ request: HTTPRequest, answer: BroadcastAnswer, fanOut: BroadcastFanOut?, started: UInt64, sink: ResponseSink
    ) {
        let latency = Int64(DispatchTime.now().uptimeNanoseconds - started) / 1000
        let response = answer.response()
        recorder.recordBroadcast(request: request, answer: answer, fanOut: fanOut, latencyMicroseconds: latency) { stored in
            sink.send(stored ? response : StoreFailureAnswer.response(apnsID: answer.requestID))
        }
    }

    // MARK: - Persistence (like the Live Activity state: the data directory, or nothing)

    static func restore(from path: String?) -> ChannelRegistry.Snapshot {
        guard let path, FileManager.default.fileExists(atPath: path) else { return ChannelRegistry.Snapshot() }
        do {
            return try JSONDecoding.decode(ChannelRegistry.Snapshot.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            let aside = path + ".unreadable"
            try? FileManager.default.removeItem(atPath: aside)
            try? FileManager.default.moveItem(atPath: path, toPath: aside)
            FileHandle.standardError.write(Data("apns-mock: broadcast channels not restored: \(error); moved to \(aside)\n".utf8))
            return ChannelRegistry.Snapshot()
        }
    }

    /// Written after every change (create, delete, subscribe) so a crash loses no channel.
    func save() {
        guard let statePath else { return }
        saving.withLock { _ in
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                try encoder.encode(channels.snapshot).write(to: URL(fileURLWithPath: statePath), options: .atomic)
            } catch {
                FileHandle.standardError.write(Data("apns-mock: broadcast channels not saved to \(statePath): \(error)\n".utf8))
            }
        }
    }
}

/// What one broadcast did on the simulated device: the outcome per subscribed activity.
struct BroadcastFanOut: Sendable, Codable, Hashable {
    struct Delivery: Sendable, Codable, Hashable {
        var activityToken: String
        /// The device's outcome (`applied`, `ignoredOlderTimestamp`, …: `LiveActivityOutcome`).
        var outcome: String
        var explanation: String
    }

    var channelID: String
    var deliveries: [Delivery]
    /// The send was a `start`, which a broadcast cannot do: it reached no activity.
    var startRefused: Bool

    /// The record's device outcome code: `broadcastFanOut`, `broadcastNoSubscribers` or `broadcastCannotStart`.
    var code: String {
        if startRefused { return "broadcastCannotStart" }
        return deliveries.isEmpty ? "broadcastNoSubscribers" : "broadcastFanOut"
    }

    /// One part per subscribed activity, `<token>: <outcome> — <explanation>`, separated by `; `.
    var explanation: String {
        if startRefused {
            return "a broadcast cannot start a Live Activity (A-LA): channel \(channelID) delivered nothing; start activities with a push-to-start token and input-push-channel"
        }
        if deliveries.isEmpty {
            return "channel \(channelID) has no subscribed activity on the simulated device: the broadcast reached nobody"
        }
        let lines = deliveries.map { "\($0.activityToken): \($0.outcome) — \($0.explanation)" }
        return "channel \(channelID) fanned out to \(deliveries.count) subscribed activit\(deliveries.count == 1 ? "y" : "ies"): "
            + lines.joined(separator: "; ")
    }
}

/// `GET /api/config/channels`: one page of live channels with their app, environment, storage policy, creation
/// time and subscribed activities' tokens (the first `maxSubscribersShown`; `subscriberCount` says how many), and
/// the page's `nextCursor` and `total`.
struct ChannelsView: Encodable {
    static let maxSubscribersShown = 1_000

    struct Channel: Encodable {
        var id: String
        var bundleID: String
        var environment: APNsEnvironment
        /// `message-storage-policy`: 0 no message stored, 1 most recent message stored (A-CHAN).
        var storagePolicy: Int
        /// ISO 8601, UTC.
        var createdAt: String
        var subscribers: [String]
        var subscriberCount: Int
    }

    var channels: [Channel]
    var nextCursor: String?
    var total: Int

    enum CodingKeys: String, CodingKey { case channels, nextCursor, total }

    init(page: ChannelRegistry.Page) {
        let format = ISO8601DateFormatter()
        channels = page.channels.map {
            Channel(
                id: $0.id, bundleID: $0.bundleID, environment: $0.environment, storagePolicy: $0.storagePolicy.rawValue,
                createdAt: format.string(from: Date(timeIntervalSince1970: $0.createdAt.secondsSinceEpoch)),
                subscribers: Array($0.subscribers.prefix(Self.maxSubscribersShown)), subscriberCount: $0.subscribers.count)
        }
        nextCursor = page.next.map(String.init)
        total = page.total
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channels, forKey: .channels)
        try container.encode(nextCursor, forKey: .nextCursor)
        try container.encode(total, forKey: .total)
    }
}
