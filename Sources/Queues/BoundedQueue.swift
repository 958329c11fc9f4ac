import Foundation

/// A first-in, first-out queue holding at most `capacity` items, for handing work between
/// threads with bounded memory. `put` waits while full (back-pressure); `offer` refuses instead.
/// After `close()`, `take` drains what is left and then returns nil.
///
/// All state is guarded by `condition`, hence `@unchecked Sendable`. (An `NSCondition`, not the
/// standard library's `Mutex`, because takers and putters wait for each other.)
package final class BoundedQueue<Element>: @unchecked Sendable {
    private let capacity: Int
    private let condition = NSCondition()
    /// Taken slots are set to nil at once, so the queue never keeps a consumed item alive
    /// (a drawn frame is megabytes); the array is compacted now and then.
    private var items: [Element?] = []
    private var head = 0
    private var closed = false

    /// - Parameter capacity: the most items held at once (> 0).
    package init(capacity: Int) {
        precondition(capacity > 0, "capacity must be > 0")
        self.capacity = capacity
    }

    private var count: Int { items.count - head }

    /// Waits for room, then appends. Returns false (and drops the item) if the queue is closed.
    @discardableResult
    package func put(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count >= capacity, !closed { condition.wait() }
        guard !closed else { return false }
        append(item)
        return true
    }

    /// Appends only if there is room now.
    package func offer(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard count < capacity, !closed else { return false }
        append(item)
        return true
    }

    /// Waits for an item; nil once the queue is closed and empty.
    package func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0, !closed { condition.wait() }
        guard count > 0 else { return nil }
        return removeFirst()
    }

    /// Waits up to `seconds` for an item; nil if none came (or the queue is closed and empty).
    package func take(waitingAtMost seconds: Double) -> Element? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while count == 0, !closed {
            if !condition.wait(until: deadline) { break }
        }
        guard count > 0 else { return nil }
        return removeFirst()
    }

    /// The next item if one is queued now; never waits.
    package func poll() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        guard count > 0 else { return nil }
        return removeFirst()
    }

    /// No more puts; takers drain what is queued. Wakes every waiter.
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Call with the lock held and an item queued.
    private func removeFirst() -> Element {
        let item = items[head]!
        items[head] = nil
        head += 1
        if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return item
    }

    private func append(_ item: Element) {
        items.append(item)
        condition.broadcast()
    }
}
