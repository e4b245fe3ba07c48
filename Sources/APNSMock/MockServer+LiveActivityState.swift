import APNSCore
import Foundation

/// Live Activity state kept with the data directory: loaded when the server starts, saved at graceful shutdown.
/// In-memory servers (`--in-memory`) keep nothing.
extension MockServer {
    var liveActivityStatePath: String? {
        configuration.dataDir.map { URL(fileURLWithPath: $0).appendingPathComponent(LiveActivityDevice.savedFileName).path }
    }

    /// Restored on a thread of its own: the server listens at once and the device's users wait for the saved
    /// state (`LiveActivityDevice.restoreInBackground`). A file that cannot be read is moved aside (never
    /// overwritten) and the device starts empty, with a message.
    func restoreLiveActivities() {
        guard let path = liveActivityStatePath else { return }
        liveActivities.device.restoreInBackground(from: path) { result in
            guard case .failure(let error) = result else { return }
            let aside = path + ".unreadable"
            try? FileManager.default.removeItem(atPath: aside)
            try? FileManager.default.moveItem(atPath: path, toPath: aside)
            FileHandle.standardError.write(Data(
                "apns-mock: Live Activity state not restored: \(error.description); moved to \(aside)\n".utf8))
        }
    }

    func saveLiveActivities() {
        guard let path = liveActivityStatePath else { return }
        do {
            try liveActivities.device.save(to: path)
        } catch {
            FileHandle.standardError.write(Data("apns-mock: Live Activity state not saved to \(path): \(error)\n".utf8))
        }
    }
}
