@testable import APNSCore
@testable import APNSStore
import DeliveryFixtures
import HTTPContract
import Foundation
import Testing

@Suite("waitForNext: the long poll CI uses instead of sleeps")
struct LongPollTests {
    @Test("returns at once when a matching record is already stored", arguments: StoreKind.allCases)
    func existing(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        appendDurably(store, makeRecord(token: "other"))
        let id = appendDurably(store, makeRecord(token: "wanted"))
        let found = try store.waitForNext(DeliveryFilter(token: "wanted"), after: 0, timeout: .seconds(5))
        #expect(found?.id == id)
    }

    @Test("wakes for a matching record appended later, skipping ones that do not match",
          arguments: StoreKind.allCases)
    func wakesOnAppend(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let start = store.latestID
        // Joined before the store closes, so nothing the appender captured outlives the test (a Foundation
        // `Thread` kept its closure, and so the store, alive to the end of the process).
        let appender = try JoinableThread(name: "appender") {
            guard store.longPollSignal.waitUntilParked() else { return }
            for index in 0..<50 {
                appendDurably(store, makeRecord(token: index == 40 ? "wanted" : "noise-\(index)"))
            }
        }
        defer { appender.join() }
        let found = try store.waitForNext(DeliveryFilter(token: "wanted"), after: start, timeout: .seconds(20))
        #expect(found?.deviceToken == "wanted")
        #expect(found.map { $0.id > start } == true)
    }

    @Test("ignores matches at or before after_id and times out with nil", arguments: StoreKind.allCases)
    func timesOut(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let id = appendDurably(store, makeRecord(token: "wanted"))
        let parkingsBefore = store.longPollSignal.parkings
        let found = try store.waitForNext(DeliveryFilter(token: "wanted"), after: id, timeout: .milliseconds(200))
        #expect(found == nil)
        // It waited for a commit until the timeout instead of answering nil at once.
        #expect(store.longPollSignal.parkings > parkingsBefore)
    }

    @Test("closing the store releases a waiting long poll", arguments: StoreKind.allCases)
    func closeReleases(kind: StoreKind) throws {
        let store = try kind.make()
        let found = Locked<DeliveryRecord?>(nil)
        let returned = DispatchSemaphore(value: 0)
        Thread {
            // The longest wait a store allows: only `close` can end it before the bound below.
            found.withLock { $0 = try? store.waitForNext(.all, after: 0, timeout: maxWait) }
            returned.signal()
        }.start()
        #expect(store.longPollSignal.waitUntilParked())
        store.close()
        #expect(returned.wait(timeout: .now() + 20) == .success)
        #expect(found.withLock { $0 } == nil)
    }
}
