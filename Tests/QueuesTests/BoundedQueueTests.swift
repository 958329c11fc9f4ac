import Foundation
import Queues
import Testing

@Suite struct BoundedQueueTests {
    final class Payload: Sendable {}

    /// A taken item is the taker's alone: the queue keeps no reference (frames are megabytes).
    @Test func takenItemsAreNotRetainedByTheQueue() {
        let queue = BoundedQueue<Payload>(capacity: 4)
        weak var gone: Payload?
        do {
            let payload = Payload()
            gone = payload
            queue.put(payload)
            _ = queue.take()
        }
        #expect(gone == nil)
    }

    @Test func itemsComeOutInOrderThroughManyCompactions() {
        let queue = BoundedQueue<Int>(capacity: 3)
        var out: [Int] = []
        for i in 0..<500 {
            queue.put(i)
            if i % 2 == 1 {
                out.append(queue.take()!)
                out.append(queue.take()!)
            }
        }
        #expect(out == Array(0..<500))
    }

    @Test func offerRefusesWhenFullAndPollNeverWaits() {
        let queue = BoundedQueue<Int>(capacity: 2)
        #expect(queue.offer(1) && queue.offer(2) && !queue.offer(3))
        #expect(queue.poll() == 1 && queue.poll() == 2 && queue.poll() == nil)
        #expect(queue.take(waitingAtMost: 0.01) == nil)
    }

    @Test func closeDrainsThenEnds() {
        let queue = BoundedQueue<Int>(capacity: 2)
        queue.put(7)
        queue.close()
        #expect(!queue.put(8))
        #expect(queue.take() == 7 && queue.take() == nil)
    }
}
