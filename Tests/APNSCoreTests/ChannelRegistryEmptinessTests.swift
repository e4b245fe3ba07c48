import APNSCore
import Testing

/// `ChannelRegistry.isEmpty` (read without the registry's lock, from a count kept with the channels) follows every
/// change of the live channels: created, deleted, restored from a snapshot, reset; deleted ids do not count.
@Suite struct ChannelRegistryEmptinessTests {
    @Test func isEmptyFollowsTheLiveChannels() {
        let registry = ChannelRegistry()
        #expect(registry.isEmpty)
        let first = registry.create(
            bundleID: "com.example", environment: .development, policy: .noMessageStored, limit: 10, now: .zero)
        let second = registry.create(
            bundleID: "com.example", environment: .development, policy: .noMessageStored, limit: 10, now: .zero)
        #expect(!registry.isEmpty)
        #expect(registry.delete(id: first!.id, bundleID: "com.example", environment: .development))
        #expect(!registry.isEmpty)
        #expect(!registry.delete(id: first!.id, bundleID: "com.example", environment: .development))
        #expect(registry.delete(id: second!.id, bundleID: "com.example", environment: .development))
        #expect(registry.isEmpty)
        #expect(registry.wasDeleted(id: second!.id))
        _ = registry.create(
            bundleID: "com.example", environment: .production, policy: .noMessageStored, limit: 1, now: .zero)
        #expect(registry.create(
            bundleID: "com.example", environment: .production, policy: .noMessageStored, limit: 1, now: .zero) == nil)
        #expect(!registry.isEmpty)
        #expect(!ChannelRegistry(registry.snapshot).isEmpty)
        registry.reset()
        #expect(registry.isEmpty)
        #expect(ChannelRegistry(registry.snapshot).isEmpty)
    }
}
