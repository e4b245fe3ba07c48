@testable import APNSCore
@testable import APNSStore
import DeliveryFixtures
import Foundation
import Testing

/// `LongPollCancellation`: how the admin API's stop ends a parked long poll at once while the store stays open.
@Suite struct LongPollCancellationTests {
    @Test("cancel ends the long poll it was given and no other", arguments: StoreKind.allCases)
    func cancelEndsOneLongPoll(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let cancelled = LongPollCancellation()
        let returned = DispatchSemaphore(value: 0)
        let otherReturned = DispatchSemaphore(value: 0)
        let found = Locked<[DeliveryRecord?]>([])
        Thread {
            found.withLock { $0.append(try? store.waitForNext(.all, after: 0, timeout: maxWait, cancellation: cancelled)) }
            returned.signal()
        }.start()
        #expect(store.longPollSignal.waitUntilParked())
        let other = LongPollCancellation()
        let parkings = store.longPollSignal.parkings
        Thread {
            _ = try? store.waitForNext(.all, after: 0, timeout: maxWait, cancellation: other)
            otherReturned.signal()
        }.start()
        // The other long poll parks too, so the cancel's wake-up reaches it as well and it must go back to waiting.
        #expect(store.longPollSignal.waitUntilParkings(exceed: parkings))
        cancelled.cancel()
        // The bound is a failure bound only: only `cancel` can end a wait of `maxWait` before it.
        #expect(returned.wait(timeout: .now() + 20) == .success)
        #expect(found.withLock { $0 } == [nil])
        #expect(otherReturned.wait(timeout: .now()) == .timedOut, "the other long poll still waits")
        other.cancel()
        #expect(otherReturned.wait(timeout: .now() + 20) == .success)
    }

    @Test("a long poll cancelled before it waits returns a record already there, else nil without parking",
          arguments: StoreKind.allCases)
    func cancelledBeforeWaiting(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let cancellation = LongPollCancellation()
        cancellation.cancel()
        let parkings = store.longPollSignal.parkings
        #expect(try store.waitForNext(.all, after: 0, timeout: maxWait, cancellation: cancellation) == nil)
        #expect(store.longPollSignal.parkings == parkings)
        let id = appendDurably(store, makeRecord(token: "wanted"))
        #expect(try store.waitForNext(.all, after: 0, timeout: maxWait, cancellation: cancellation)?.id == id)
    }
}
