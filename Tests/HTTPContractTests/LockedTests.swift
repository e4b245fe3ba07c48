import Dispatch
import HTTPContract
import Testing

@Suite("Locked: a value behind a lock that is tried again before its thread sleeps")
struct LockedTests {
    @Test("threads that meet on the lock, retrying or asleep, each get it alone: a shared counter ends exactly right")
    func contendedCounter() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test("a thread that finds the lock held waits for the holder, then sees what it wrote")
    func waitsForTheHolder() {
        let shared = Locked<[String]>([])
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            shared.withLock { value in
                entered.signal()
                release.wait()
                value.append("holder")
            }
        }
        entered.wait()
        DispatchQueue.global().async(group: done) {
            shared.withLock { $0.append("waiter") }
        }
        release.signal()
        done.wait()
        #expect(shared.withLock { $0 } == ["holder", "waiter"])
    }
}
