import Foundation
import HTTPContract
import Synchronization
import Testing

/// `JoinableThread.join` returns only once the thread's body has returned AND released what it captured, so an
/// object whose last reference the thread held is never freed on that thread after its owner went on.
@Suite struct JoinableThreadTests {
    final class Flag: Sendable {
        let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    }

    /// Sets its flag when it is freed.
    final class Tracked: Sendable {
        let flag: Flag
        init(flag: Flag) { self.flag = flag }
        deinit { flag.value.store(true, ordering: .sequentiallyConsistent) }
    }

    @Test func joinReturnsOnceTheBodyAndWhatItCapturedAreReleased() throws {
        for _ in 0..<50 {
            let flag = Flag()
            let thread = try { () throws(ThreadStartError) -> JoinableThread in
                let tracked = Tracked(flag: flag)
                return try JoinableThread(name: "joinable-test") { [tracked] in _ = tracked.flag }
            }()
            thread.join()
            #expect(flag.isSet, "the captured object was freed before join returned")
        }
    }

    @Test func aBoundedJoinSaysWhetherTheThreadEnded() throws {
        let release = DispatchSemaphore(value: 0)
        let thread = try JoinableThread(name: "joinable-test") { release.wait() }
        #expect(!thread.join(within: 0.01), "a thread still blocked has not ended")
        release.signal()
        let other = try JoinableThread(name: "joinable-test") {}
        #expect(other.join(within: 60))
        #expect(other.join(within: 60), "a second bounded join of an ended thread also says it ended")
    }
}
