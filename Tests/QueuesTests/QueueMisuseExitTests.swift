import Queues
import Testing

/// A queue that holds nothing is programmer misuse (every capacity in the project is a constant).
@Suite struct QueueMisuseExitTests {
    @Test func aQueueWithoutRoomTraps() async {
        await #expect(processExitsWith: .failure) { _ = BoundedQueue<Int>(capacity: 0) }
    }
}
