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
defer { try? FileManager.default.removeItem(at: directory) }
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
exit(failed ? 1 : 0)
