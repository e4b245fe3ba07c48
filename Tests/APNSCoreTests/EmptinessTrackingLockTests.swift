import APNSCore
import Testing

/// `isEmpty` answers for the collection as the last locked access left it, whatever that access did to it.
@Suite struct EmptinessTrackingLockTests {
    @Test func isEmptyFollowsEveryChange() {
        let lock = EmptinessTrackingLock<[String: Int]>([:])
        #expect(lock.isEmpty)
        lock.withLock { $0["a"] = 1 }
        #expect(!lock.isEmpty)
        let removed = lock.withLock { $0.removeValue(forKey: "b") }
        #expect(removed == nil && !lock.isEmpty)
        lock.withLock { $0["a"] = nil }
        #expect(lock.isEmpty)
        #expect(!EmptinessTrackingLock([1]).isEmpty)
    }

    @Test func aRegistryIsEmptyAgainOnceItsTokensAreRemoved() {
        let token = String(repeating: "ab", count: 32)
        let registry = DeviceTokenRegistry([DeclaredDeviceToken(token: token, bundleID: "com.example.app")])
        #expect(registry.lookup(token) != .registryEmpty)
        registry.remove(token: token)
        #expect(registry.lookup(token) == .registryEmpty)
        registry.declare(DeclaredDeviceToken(token: token, bundleID: "com.example.app"))
        #expect(registry.lookup(token.uppercased()) != .registryEmpty)
        registry.removeAll()
        #expect(registry.lookup(token) == .registryEmpty)
    }
}
