// The clocks of real time, from the C library's monotonic clock: native only. The wasm core's
// frames come from the page's requestAnimationFrame (docs/serve.md), through the same driver.
#if canImport(Glibc)
import Glibc

/// `CLOCK_MONOTONIC`, in nanoseconds.
public final class MonotonicStopwatch: Stopwatch {
    public init() {}

    /// Nanoseconds since an arbitrary fixed point (boot).
    public func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

/// Real-time frames: paces to `fps` frames per second of the stopwatch's time and returns the
/// real, measured time of each frame (like CADisplayLink's timestamp). A frame that runs late is
/// not made up for: the next one starts at once, on the next slot still ahead.
public final class WallFrameClock: FrameClock {
    public let ticksPerSecond: Int64 = 1_000_000_000
    private let stopwatch: Stopwatch
    private let fps: Int64
    private var start: Int64?
    private var slot: Int64 = 0

    public init(fps: Int, stopwatch: Stopwatch) {
        precondition(fps > 0, "fps must be > 0")
        self.fps = Int64(fps)
        self.stopwatch = stopwatch
    }

    /// Nanoseconds from the start to frame slot `k`, exact in integers: floor(k × 10⁹ / fps).
    private func slotTime(_ k: Int64) -> Int64 { k * 1_000_000_000 / fps }

    public func nextFrame() -> Int64? {
        let now = stopwatch.nanoseconds()
        guard let start else {
            self.start = now
            return 0
        }
        slot += 1
        let elapsed = now - start
        if slotTime(slot) <= elapsed {
            // Late: skip the slots already passed and start this frame now.
            slot = elapsed * fps / 1_000_000_000 + 1
            return elapsed
        }
        sleep(nanoseconds: slotTime(slot) - elapsed)
        return stopwatch.nanoseconds() - start
    }

    private func sleep(nanoseconds: Int64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        // A signal (Ctrl-C) cuts the sleep short; the run loop then checks for a stop request.
        _ = nanosleep(&request, &remaining)
    }
}
#endif
