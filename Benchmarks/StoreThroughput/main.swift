import APNSCore
import APNSStore
import DeliveryFixtures
import Foundation
import Synchronization
import Testing

/// Measures group-commit throughput and prints it; asserts only that every record became durable.
@Suite("Store throughput (printed, not asserted)")
struct ThroughputTests {
    @Test("four threads append 200k records; every completion reports success", arguments: StoreKind.allCases)
    func throughput(kind: StoreKind) throws {
        let total = 200_000
        let threads = 4
        let store = try kind.make(retention: RetentionPolicy(maxCount: 1_000_000, maxAge: nil))
        defer { store.close() }
        let records = (0..<1_000).map { makeRecord(token: String(format: "%064x", $0)) }
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
        print("throughput[\(kind.rawValue)]: \(total) records in \(String(format: "%.2f", seconds)) s = "
            + "\(Int(Double(total) / seconds)) records/s")
        #expect(succeeded.load(ordering: .relaxed) == total)
        #expect(try store.count() == total)
    }
}
