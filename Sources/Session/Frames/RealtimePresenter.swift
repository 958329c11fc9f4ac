import Driver
import Foundation
import Outputs
import Raster
import SceneModel
import Synchronization

/// Hands frames to the render stage on the frame clock's schedule in real-time runs, on a thread
/// of its own, so a slow physics step delays the state shown, never the frame itself. The step
/// loop posts its latest frame; each frame slot sends the latest one posted (again, if physics
/// has not produced a newer one, as a display repeats its last image).
///
/// Slots are those of an offline run: slot k at k/fps s for k = 1, 2, ... (the wall clock's
/// moment 0 is the start, which an offline run does not draw either), at most `slots` of them.
/// A slot the thread reached late is still sent (the latest frame again), and at a completed
/// end the slots not yet reached are sent with the final state, so a real-time run writes as
/// many frames as an offline run of the same length (600 for 10 s at 60 fps).
public final class RealtimePresenter: Sendable {
    /// What the presenter thread and the step loop share.
    private struct Shared {
        var latest: FrameJob?
        var stopped = false
        var intervals = LatencyHistogram()
        var presented = 0
        /// The last slot sent or passed over.
        var slot = 0
    }

    private let shared = Mutex(Shared())
    private let finished = DispatchSemaphore(value: 0)
    private let every: Int
    private let slots: Int?
    private let pipeline: RenderPipeline

    /// Starts presenting `every`-th frame slots at `fps` into `pipeline`.
    /// - Parameters:
    ///   - fps: frame slots per second of the wall clock.
    ///   - every: send every `every`-th slot.
    ///   - slots: the run's frame slots in all (its frame count), nil for a run that only a stop
    ///     ends. The last slot is the run's final state, sent by `stop(completed: true)`.
    ///   - pipeline: where the frames go.
    public init(fps: Int, every: Int, slots: Int? = nil, pipeline: RenderPipeline) {
        self.every = every
        self.slots = slots
        self.pipeline = pipeline
        Thread { [self] in
            let stopwatch = MonotonicStopwatch()
            let clock = WallFrameClock(fps: fps, stopwatch: stopwatch)
            var lastSent: Int64?
            // The clock's first frame is its start (time 0), slot 0: not a frame slot.
            _ = clock.nextFrame()
            while let ticks = clock.nextFrame() {
                let (job, done, slot) = shared.withLock { ($0.latest, $0.stopped, $0.slot) }
                if done { break }
                // A late frame stands for every slot it passed: floor(ticks × fps / 10⁹).
                var reached = max(slot + 1, Int(Int128(ticks) * Int128(fps) / 1_000_000_000))
                // The last slot waits for the run's final state (`stop`).
                if let slots { reached = min(reached, slots - 1) }
                guard reached > slot else {
                    if let slots, slot >= slots - 1 { break }
                    continue
                }
                // No frame posted yet (the step loop's first frame is on its way): the slots stay
                // owed and go out with the first frame, as a late frame's do.
                guard let job else { continue }
                let sent = send(job, slots: (slot + 1)...reached, waitIfFull: false)
                let now = stopwatch.nanoseconds()
                shared.withLock {
                    $0.slot = reached
                    if sent > 0 {
                        if let lastSent { $0.intervals.record(now - lastSent) }
                        $0.presented += sent
                    }
                }
                if sent > 0 { lastSent = now }
            }
            finished.signal()
        }.start()
    }

    /// Submits `job` once for each `every`-th slot in `range`; returns how many it submitted.
    private func send(_ job: FrameJob, slots range: ClosedRange<Int>, waitIfFull: Bool) -> Int {
        var sent = 0
        for slot in range where slot % every == 0 {
            pipeline.submit(job, waitIfFull: waitIfFull)
            sent += 1
        }
        return sent
    }

    /// The step loop's newest frame.
    public func post(_ job: FrameJob) {
        shared.withLock { $0.latest = job }
    }

    /// Stops presenting; returns the intervals between frames sent and how many were sent.
    /// - Parameter completed: the run reached its end: the slots not yet sent, up to `slots`,
    ///   are sent with the final state (waiting for room, so none is dropped).
    public func stop(completed: Bool = false) -> (intervals: LatencyHistogram, presented: Int) {
        shared.withLock { $0.stopped = true }
        finished.wait()
        let (job, slot) = shared.withLock { ($0.latest, $0.slot) }
        if completed, let slots, let job, slot < slots {
            let sent = send(job, slots: (slot + 1)...slots, waitIfFull: true)
            shared.withLock {
                $0.slot = slots
                $0.presented += sent
            }
        }
        return shared.withLock { ($0.intervals, $0.presented) }
    }
}
