import Driver
import Foundation
import Raster
import SceneModel
import Synchronization

/// Hands frames to the render stage on the frame clock's schedule in real-time runs, on a thread
/// of its own, so a slow physics step delays the state shown, never the frame itself. The step
/// loop posts its latest frame; each frame slot sends the latest one posted (again, if physics
/// has not produced a newer one, as a display repeats its last image).
public final class RealtimePresenter: Sendable {
    /// What the presenter thread and the step loop share.
    private struct Shared {
        var latest: FrameJob?
        var stopped = false
        var intervals = LatencyHistogram()
        var presented = 0
    }

    private let shared = Mutex(Shared())
    private let finished = DispatchSemaphore(value: 0)

    /// Starts presenting `every`-th frame slots at `fps` into `pipeline`.
    public init(fps: Int, every: Int, pipeline: RenderPipeline) {
        Thread { [self] in
            let stopwatch = MonotonicStopwatch()
            let clock = WallFrameClock(fps: fps, stopwatch: stopwatch)
            var slot = 0
            var lastSent: Int64?
            while clock.nextFrame() != nil {
                let (job, done) = shared.withLock { ($0.latest, $0.stopped) }
                if done { break }
                slot += 1
                guard let job, slot % every == 0 else { continue }
                pipeline.submit(job, waitIfFull: false)
                let now = stopwatch.nanoseconds()
                shared.withLock {
                    if let lastSent { $0.intervals.record(now - lastSent) }
                    $0.presented += 1
                }
                lastSent = now
            }
            finished.signal()
        }.start()
    }

    /// The step loop's newest frame.
    public func post(_ job: FrameJob) {
        shared.withLock { $0.latest = job }
    }

    /// Stops presenting; returns the intervals between frames sent and how many were sent.
    public func stop() -> (intervals: LatencyHistogram, presented: Int) {
        shared.withLock { $0.stopped = true }
        finished.wait()
        return shared.withLock { ($0.intervals, $0.presented) }
    }
}
