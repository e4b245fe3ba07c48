import APNSJSON
import Foundation

/// The simulated device's memory as saved in the data directory (`live-activities.json`), so activities, their
/// timelines and budgets survive a graceful restart like the deliveries do. Written at shutdown, read at start;
/// a crash loses what changed since the last start (docs/live-activities.md).
struct SavedDeviceState: Codable {
    static let currentVersion = 1

    var version = SavedDeviceState.currentVersion
    var tokens: [SavedToken]

    struct SavedToken: Codable {
        var key: String
        var snapshot: ActivitySnapshot
        var priority10Deliveries: [Timestamp]
    }
}

/// A saved device file that cannot be used; the caller says so and starts with an empty device.
public struct SavedDeviceStateError: Error, CustomStringConvertible {
    public let description: String
}

extension LiveActivityDeviceState {
    func savedForm() -> SavedDeviceState {
        SavedDeviceState(tokens: zip(table.keys, tokens).map { key, record in
            SavedDeviceState.SavedToken(
                key: key, snapshot: record.fullSnapshot, priority10Deliveries: record.priority10Deliveries)
        })
    }

    /// Restored timelines join the device-wide order token by token, in the order the tokens were first seen.
    mutating func restore(_ saved: SavedDeviceState) {
        reset()
        for token in saved.tokens {
            let key = TokenKey(token.key)
            guard table.slot(of: key) == nil else { continue }
            var record = TokenRecord(snapshot: token.snapshot, priority10Deliveries: token.priority10Deliveries)
            makeRoomForNewToken()
            adoptTimeline(of: &record, slot: tokens.count)
            add(record, key: key)
        }
        trimTimelines()
    }
}

extension LiveActivityDevice {
    /// The file name inside the data directory.
    public static let savedFileName = "live-activities.json"

    /// Writes every activity to `path` (atomically: a temporary file renamed over the old one).
    public func save(to path: String) throws {
        let saved = state.withLock { $0.savedForm() }
        let data = try JSONEncoder().encode(saved)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Loads the activities saved at `path`; returns how many. A missing file is an empty device (0).
    @discardableResult
    public func restore(from path: String) throws(SavedDeviceStateError) -> Int {
        try state.withLock { (state: inout LiveActivityDeviceState) throws(SavedDeviceStateError) -> Int in
            try Self.load(from: path, into: &state)
        }
    }

    /// Restores from `path` on a thread of its own and returns as soon as that thread holds the device: every other
    /// use of the device (a push, the admin API, `save`) waits until the saved state is in, so nothing sees the
    /// device half restored, and the server announces that it listens without reading a large file first (10,000
    /// saved tokens: 8 MB, about 0.4 s). `completion` gets what `restore(from:)` would return, on that thread and
    /// still holding the device (so a `save` cannot come between a failure and what the caller does about the
    /// file); it must not use the device.
    public func restoreInBackground(
        from path: String, completion: @escaping @Sendable (Result<Int, SavedDeviceStateError>) -> Void
    ) {
        let holding = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            state.withLock { state in
                holding.signal()
                do throws(SavedDeviceStateError) {
                    completion(.success(try Self.load(from: path, into: &state)))
                } catch {
                    completion(.failure(error))
                }
            }
        }
        thread.name = "apns-mock Live Activity restore"
        thread.start()
        holding.wait()
    }

    private static func load(from path: String, into state: inout LiveActivityDeviceState) throws(SavedDeviceStateError)
        -> Int
    {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SavedDeviceStateError(description: "\(path) cannot be read")
        }
        let saved: SavedDeviceState
        do {
            saved = try JSONDecoding.decode(SavedDeviceState.self, from: data)
        } catch {
            throw SavedDeviceStateError(description: "\(path) is not a saved device state (\(error))")
        }
        guard saved.version == SavedDeviceState.currentVersion else {
            throw SavedDeviceStateError(
                description: "\(path) has version \(saved.version); this build reads \(SavedDeviceState.currentVersion)")
        }
        state.restore(saved)
        return saved.tokens.count
    }
}
