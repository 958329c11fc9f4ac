import Driver
import Foundation
import Raster
import SceneModel

/// Hands frames to the render stage on the frame clock's schedule in real-time runs, on a thread
/// of its own, so a slow physics step delays the state shown, never the frame itself. The step
/// loop posts its latest frame; each frame slot sends the latest one posted (again, if physics
/// has not produced a newer one, as a display repeats its last image).
///
/// State shared with the step loop is guarded by `lock`, hence `@unchecked Sendable`.
public final class RealtimePresenter: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: FrameJob?
    private var stopped = false
    private var intervals = LatencyHistogram()
    private var presented = 0
    private let finished = DispatchSemaphore(value: 0)

    /// Starts presenting `every`-th frame slots at `fps` into `pipeline`.
    public init(fps: Int, every: Int, pipeline: RenderPipeline) {
        Thread { [self] in
            let stopwatch = MonotonicStopwatch()
            let clock = WallFrameClock(fps: fps, stopwatch: stopwatch)
            var slot = 0
            var lastSent: Int64?
            while clock.nextFrame() != nil {
                lock.lock()
                let job = latest, done = stopped
                lock.unlock()
                if done { break }
                slot += 1
                guard let job, slot % every == 0 else { continue }
                pipeline.submit(job, waitIfFull: false)
                let now = stopwatch.nanoseconds()
                lock.lock()
                if let lastSent { intervals.record(now - lastSent) }
                presented += 1
                lock.unlock()
                lastSent = now
            }
            finished.signal()
        }.start()
    }

    /// The step loop's newest frame.
    public func post(_ job: FrameJob) {
        lock.lock()
        latest = job
        lock.unlock()
    }

    /// Stops presenting; returns the intervals between frames sent and how many were sent.
    public func stop() -> (intervals: LatencyHistogram, presented: Int) {
        lock.lock()
        stopped = true
        lock.unlock()
        finished.wait()
        lock.lock()
        defer { lock.unlock() }
        return (intervals, presented)
    }
}
