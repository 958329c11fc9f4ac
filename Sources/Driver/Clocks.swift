/// Reads a monotonic time in integer nanoseconds. The driver measures step costs and its
/// per-frame budget with it; tests inject one that advances by hand.
public protocol Stopwatch: AnyObject {
    func nanoseconds() -> Int64
}

/// Supplies frame times. Time is an integer count of ticks since the run started, at
/// `ticksPerSecond`, so the driver can compute owed steps exactly: floor(ticks × stepRate / ticksPerSecond).
public protocol FrameClock: AnyObject {
    var ticksPerSecond: Int64 { get }
    /// Waits for the next frame if the clock paces in real time; returns its time in ticks,
    /// or nil when the clock has no more frames.
    func nextFrame() -> Int64?
}

/// Offline frames: frame k is at exactly k/fps seconds (one tick per frame), delivered as fast
/// as the caller asks; nothing waits.
public final class VirtualFrameClock: FrameClock {
    public let ticksPerSecond: Int64
    private var frame: Int64 = 0

    public init(fps: Int) {
        precondition(fps > 0, "fps must be > 0")
        ticksPerSecond = Int64(fps)
    }

    public func nextFrame() -> Int64? {
        frame += 1
        return frame
    }
}

/// Offline frames at recorded times (nanoseconds since start, non-decreasing), e.g. a jittered
/// trace with hitches, for tests and replays.
public final class TraceFrameClock: FrameClock {
    public let ticksPerSecond: Int64 = 1_000_000_000
    private let times: [Int64]
    private var index = 0

    public init(nanoseconds times: [Int64]) {
        precondition(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "frame times must not go backwards")
        self.times = times
    }

    public func nextFrame() -> Int64? {
        guard index < times.count else { return nil }
        defer { index += 1 }
        return times[index]
    }
}
