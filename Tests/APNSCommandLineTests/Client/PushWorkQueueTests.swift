import HTTP2
import Testing
@testable import APNSCommandLine

/// `push --connections K`: each connection thread (lane) takes exactly its share of the first attempts, in push
/// order, however the threads are scheduled; a lane that gives up hands its share to the others.
@Suite struct PushWorkQueueTests {
    /// Takes first attempts for `lane` until the queue has none for it now; returns their indexes.
    static func drain(_ queue: PushWorkQueue, lane: Int) -> [Int] {
        var taken: [Int] = []
        for _ in 0..<10_000 {
            guard case .push(let index, 1) = queue.take(lane: lane, skip: { _, _ in }) else { break }
            taken.append(index)
        }
        return taken
    }

    @Test("the first lane to ask gets its share only", arguments: [
        (count: 60, lanes: 3, shares: [20, 20, 20]),
        (count: 10, lanes: 3, shares: [4, 3, 3]),
        (count: 2, lanes: 2, shares: [1, 1]),
        (count: 7, lanes: 1, shares: [7]),
    ])
    func sharesAreFixedAtTheStart(count: Int, lanes: Int, shares: [Int]) {
        let queue = PushWorkQueue(count: count, keepOrder: true, lanes: lanes, job: HTTP2ClientSocketTests.pushes(count))
        // The last lane asks first, as a thread scheduled first would; it still gets only its share.
        let taken = (0..<lanes).reversed().map { Self.drain(queue, lane: $0) }.reversed()
        #expect(taken.map(\.count) == shares)
        #expect(taken.flatMap { $0 }.sorted() == Array(0..<count), "every push is taken once")
    }

    @Test func aLaneWhoseShareIsTakenWaitsWhileOthersStillHoldPushes() {
        let queue = PushWorkQueue(count: 6, keepOrder: true, lanes: 2, job: HTTP2ClientSocketTests.pushes(6))
        #expect(Self.drain(queue, lane: 0) == [0, 1, 2])
        guard case .wait = queue.take(lane: 0, skip: { _, _ in }) else {
            Issue.record("lane 0 must wait, not finish, while lane 1 holds pushes")
            return
        }
        #expect(Self.drain(queue, lane: 1) == [3, 4, 5])
        guard case .done = queue.take(lane: 0, skip: { _, _ in }) else {
            Issue.record("nothing left: lane 0 is done")
            return
        }
    }

    @Test func aLaneThatGivesUpHandsItsShareToTheOthers() {
        let queue = PushWorkQueue(count: 9, keepOrder: true, lanes: 3, job: HTTP2ClientSocketTests.pushes(9))
        #expect(Self.drain(queue, lane: 0) == [0, 1, 2])
        queue.release(lane: 2)
        #expect(Self.drain(queue, lane: 0) == [3, 4, 5], "lane 0 takes lane 2's share")
        #expect(Self.drain(queue, lane: 1) == [6, 7, 8])
    }
}
