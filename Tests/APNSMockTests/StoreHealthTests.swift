import APNSCore
import APNSStore
import HTTPContract
import Testing

@testable import APNSMock

/// A failed append makes the store degraded with its reason until the next successful one; a success reads a flag
/// without the lock while nothing failed, so these check that the flag and the reason move together.
@Suite struct StoreHealthTests {
    @Test func aSuccessClearsTheFailureBeforeItAndNothingElse() {
        let lines = Locked<[String]>([])
        let health = StoreHealth(log: RateLimitedLog(interval: .zero) { line in lines.withLock { $0.append(line) } })
        #expect(health.degradedReason == nil)
        health.recordSuccess()
        #expect(health.degradedReason == nil)
        health.recordFailure(DeliveryStoreError.sqlite(code: 13, message: "database or disk is full"))
        #expect(health.degradedReason?.contains("database or disk is full") == true)
        health.recordFailure(DeliveryStoreError.sqlite(code: 10, message: "disk I/O error"))
        #expect(health.degradedReason?.contains("disk I/O error") == true)
        health.recordSuccess()
        #expect(health.degradedReason == nil)
        health.recordSuccess()
        #expect(health.degradedReason == nil)
        health.recordFailure(DeliveryStoreError.sqlite(code: 13, message: "database or disk is full"))
        #expect(health.degradedReason != nil)
        #expect(lines.withLock { $0.count } == 3)
    }
}
