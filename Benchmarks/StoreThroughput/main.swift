import APNSCore
import APNSStore
import DeliveryFixtures
import Foundation
import Synchronization

/// Store group-commit throughput, run by `make bench` (scripts/bench), never by `make test`: four threads append
/// records to each store and the figures are printed. Exits 1 if any append did not become durable.
///   store-throughput [RECORDS]   (default 200000)
let total = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 200_000
let threads = 4
var failed = false

func makeStore(_ kind: String, directory: URL) throws -> any DeliveryStore {
    let retention = RetentionPolicy(maxCount: 1_000_000, maxAge: nil)
    switch kind {
    case "sqlite":
        return try SQLiteDeliveryStore(
            path: directory.appendingPathComponent(SQLiteDeliveryStore.fileName).path, retention: retention)
    default:
        return InMemoryDeliveryStore(retention: retention)
    }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let records = (0..<1_000).map { makeRecord(token: String(format: "%064x", $0)) }

for kind in ["sqlite", "memory"] {
    let store = try makeStore(kind, directory: directory)
    let succeeded = Atomic<Int>(0)
    let group = DispatchGroup()
    let started = Date()
    for worker in 0..<threads {
        group.enter()
        Thread {
            let pending = DispatchGroup()
            for index in stride(from: worker, to: total, by: threads) {
                pending.enter()
                store.append(records[index % records.count]) { result in
                    if case .success = result { succeeded.add(1, ordering: .relaxed) }
                    pending.leave()
                }
            }
            pending.wait()
            group.leave()
        }.start()
    }
    group.wait()
    let seconds = Date().timeIntervalSince(started)
    let stored = try store.count()
    store.close()
    print("store throughput [\(kind)]: \(total) records, \(threads) threads, in \(String(format: "%.2f", seconds)) s = "
        + "\(Int(Double(total) / seconds)) records/s")
    if succeeded.load(ordering: .relaxed) != total || stored != total {
        print("store throughput [\(kind)]: only \(succeeded.load(ordering: .relaxed)) appends succeeded, \(stored) stored")
        failed = true
    }
}
/// Thread CPU seconds (the encoding loop's own time, less sensitive to other load than wall time).
func threadCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

// The record encoding every durable push pays on its event-loop thread (the packed record the SQLite store keeps,
// `StoredRecordEncoder`), and for comparison the record's JSON (`DeliveryRecord.jsonBytes`: what the store kept before
// schema version 5, and what the admin API answers), for a record shaped like the bench's Live Activity update
// (160-hex token, ten headers, a warning, the payload as text).
let liveActivityRecord = makeRecord(
    token: String(repeating: "0", count: 156) + "0045", topic: "com.example.app.push-type.liveactivity",
    pushType: "liveactivity",
    payload: #"{"aps":{"timestamp":1795425530,"event":"update","content-state":{"progress":0.5,"status":"On the way","#
        + #""driverName":"Alex","etaMinutes":12}}}"#,
    warnings: [PushWarning(code: "la-content-state-unchecked", message: String(repeating: "content-state was not checked ", count: 7))])
let encodings = 200_000
var encoder = StoredRecordEncoder()
for (name, encode) in [
    ("record encoding (stored, packed)", { encoder.storedByteCount(liveActivityRecord) }),
    ("record encoding (JSON)", { liveActivityRecord.jsonBytes.count }),
] {
    var encodedBytes = 0
    let encodingStarted = threadCPUSeconds()
    for _ in 0..<encodings { encodedBytes &+= encode() }
    let encodingSeconds = threadCPUSeconds() - encodingStarted
    print("\(name): \(encodings) Live Activity records of \(encodedBytes / encodings) bytes, "
        + String(format: "%.2f", encodingSeconds * 1e6 / Double(encodings)) + " µs CPU per record")
}
// Removed here: `exit` ends the process without running a top-level `defer`.
try? FileManager.default.removeItem(at: directory)
exit(failed ? 1 : 0)
