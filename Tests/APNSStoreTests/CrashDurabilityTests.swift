import APNSCore
import APNSStore
import Foundation
import Testing

/// The durability promise behind "a 200 is sent only for a stored delivery": run `store-crash-writer` (appends
/// under load and prints each id after its durability callback), `kill -9` it mid-load, reopen the file, and find
/// every printed id.
@Suite("kill -9 durability")
struct CrashDurabilityTests {
    /// The executable SwiftPM built next to the test bundle.
    static var writerPath: String {
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [buildDirectory, buildDirectory.deletingLastPathComponent()].map {
            $0.appendingPathComponent("store-crash-writer").path
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }

    @Test("every id reported durable before kill -9 is in the store after reopening")
    func killNine() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.writerPath),
                "build store-crash-writer first (swift build)")
        let directory = try TemporaryDirectory.make()
        let path = directory.path(SQLiteDeliveryStore.fileName)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.writerPath)
        process.arguments = [path, "4"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        var output = Data()
        // Read until well into the load, then kill without warning.
        while output.count < 400_000 {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        output.append(pipe.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        // Only complete lines count: the last one may have been cut by the kill.
        var lines = output.split(separator: 0x0A, omittingEmptySubsequences: false)
        lines.removeLast()
        let reported = lines.compactMap { Int64(String(decoding: $0, as: UTF8.self)) }
        #expect(reported.count > 10_000)

        let store = try SQLiteDeliveryStore(path: path, retention: RetentionPolicy(maxCount: 10_000_000, maxAge: nil))
        defer { store.close() }
        let stored = Set(try store.deliveries(DeliveryQuery(limit: 10_000_000, order: .oldestFirst)).map(\.id))
        let missing = reported.filter { !stored.contains($0) }
        print("kill -9: \(reported.count) ids reported durable, \(stored.count) stored, \(missing.count) missing")
        #expect(missing.isEmpty)
    }
}
