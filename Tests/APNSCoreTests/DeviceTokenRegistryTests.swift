import APNSCore
import Foundation
import Testing

@Suite struct DeviceTokenRegistryTests {
    let token = DeclaredDeviceToken(token: "ABCDEF01", bundleID: "com.example.app")

    @Test func emptyRegistrySaysSo() {
        #expect(DeviceTokenRegistry().lookup("abcdef01") == .registryEmpty)
    }

    @Test func lookupIgnoresLetterCase() {
        let registry = DeviceTokenRegistry([token])
        #expect(registry.lookup("abcdef01") == .declared(token))
        #expect(registry.lookup("ABCDEF01") == .declared(token))
        #expect(token.token == "abcdef01")
    }

    @Test func otherTokensAreUndeclaredOnceAnyIsDeclared() {
        let registry = DeviceTokenRegistry([token])
        #expect(registry.lookup("00") == .undeclared)
    }

    @Test func stateChangesAtRunTime() {
        let registry = DeviceTokenRegistry([token])
        let at = Timestamp(nanosecondsSinceEpoch: 1_767_139_200_000_000_000)
        #expect(registry.setState(.unregistered(at: at), forToken: "ABCDEF01"))
        #expect(registry.all().first?.state == .unregistered(at: at))
        #expect(!registry.setState(.active, forToken: "00"))
    }

    @Test func removingTheLastTokenEmptiesTheRegistry() {
        let registry = DeviceTokenRegistry([token])
        #expect(registry.remove(token: "ABCDEF01"))
        #expect(!registry.remove(token: "ABCDEF01"))
        #expect(registry.lookup("abcdef01") == .registryEmpty)
    }

    @Test func concurrentDeclarationsAreAllKept() async {
        let registry = DeviceTokenRegistry()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let token = String(format: "%04x", index)
                    registry.declare(DeclaredDeviceToken(token: token, bundleID: "com.example.app"))
                    _ = registry.lookup(String(format: "%04x", index))
                }
            }
        }
        #expect(registry.all().count == 200)
    }

    @Test func flatJSONFormRoundTrips() throws {
        let tokens = [
            DeclaredDeviceToken(
                token: "a1a1", bundleID: "com.example.app", kind: .liveActivityUpdate, environment: .production,
                state: .expired(at: Timestamp(nanosecondsSinceEpoch: 1_767_100_000_000_000_000))),
            DeclaredDeviceToken(token: "b2b2", bundleID: "com.example.app", kind: .other(topicSuffix: ".complication")),
        ]
        let data = try JSONEncoder().encode(tokens)
        #expect(try JSONDecoder().decode([DeclaredDeviceToken].self, from: data) == tokens)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""stateSince":1767100000000"#))
        #expect(text.contains(#""kind":"liveActivityUpdate""#))
    }

    @Test func flatJSONDefaultsToAnActiveDevelopmentDeviceToken() throws {
        let json = #"{"token":"c3c3","bundleID":"com.example.app"}"#
        let decoded = try JSONDecoder().decode(DeclaredDeviceToken.self, from: Data(json.utf8))
        #expect(decoded == DeclaredDeviceToken(token: "c3c3", bundleID: "com.example.app"))
    }

    @Test func unknownKindIsRejected() {
        let json = #"{"token":"c3c3","bundleID":"com.example.app","kind":"watch"}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DeclaredDeviceToken.self, from: Data(json.utf8))
        }
    }
}

/// The registry's emptiness (which lets a lookup skip the lock) follows declarations and removals.
@Suite struct DeviceTokenRegistryEmptinessTests {
    @Test func lookupsFollowDeclarationsAndRemovals() {
        let token = String(repeating: "ab", count: 32)
        let registry = DeviceTokenRegistry()
        #expect(registry.lookup(token) == .registryEmpty)
        registry.declare(DeclaredDeviceToken(token: token, bundleID: "com.example.app"))
        #expect(registry.lookup(token.uppercased()) != .registryEmpty)
        #expect(registry.lookup("cd") == .undeclared)
        #expect(registry.remove(token: token))
        #expect(registry.lookup(token) == .registryEmpty)
        registry.declare(DeclaredDeviceToken(token: token, bundleID: "com.example.app"))
        registry.removeAll()
        #expect(registry.lookup(token) == .registryEmpty)
        #expect(DeviceTokenRegistry([DeclaredDeviceToken(token: token, bundleID: "com.example.app")]).lookup("cd") == .undeclared)
    }
}
