import APNSJSON
import APNSCore
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
        SavedDeviceState(tokens: order.compactMap { key in
            records[key].map {
                SavedDeviceState.SavedToken(key: key, snapshot: $0.fullSnapshot, priority10Deliveries: $0.priority10Deliveries)
            }
        })
    }

    mutating func restore(_ saved: SavedDeviceState) {
        reset()
        for token in saved.tokens where records[token.key] == nil {
            records[token.key] = TokenRecord(snapshot: token.snapshot, priority10Deliveries: token.priority10Deliveries)
            order.append(token.key)
        }
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
            throw SavedDeviceStateError(description: "\(path) has version \(saved.version); this build reads \(SavedDeviceState.currentVersion)")
        }
        state.withLock { $0.restore(saved) }
        return saved.tokens.count
    }
}
