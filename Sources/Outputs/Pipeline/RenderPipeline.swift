import Foundation
import Queues
import Raster
import SceneModel
import Synchronization

/// One frame to draw: the snapshots either side of the last step and the interpolation weight.
public struct FrameJob: Sendable {
    public var previous: WorldSnapshot
    public var current: WorldSnapshot
    public var alpha: Double

    public init(previous: WorldSnapshot, current: WorldSnapshot, alpha: Double) {
        self.previous = previous
        self.current = current
        self.alpha = alpha
    }
}

/// What the render stage did, for the run summary.
public struct RenderStats: Sendable {
    /// Frames a real-time run skipped because the render stage was behind.
    public var framesSkipped = 0
    public var framesWritten = 0
    /// Nanoseconds per frame to interpolate and draw, and to write.
    public var drawTimes = LatencyHistogram()
    public var writeTimes = LatencyHistogram()
    public var failure: FrameWriteError?
}

/// Draws and writes frames on two threads of its own, off the step loop, with a bounded number of
/// frames in flight: `inFlight` jobs waiting to be drawn plus 2 drawn images waiting to be written.
///
/// Offline runs `submit(_:waitIfFull: true)`: the step loop waits for room (back-pressure).
/// Real-time runs pass false: a frame that finds the queue full is skipped and counted, so a slow
/// renderer never delays physics. The first write error stops the pipeline; `failure` tells the
/// step loop, and frames already written stay complete.
public final class RenderPipeline: Sendable {
    private let jobs: BoundedQueue<FrameJob>
    private let images: BoundedQueue<RGBImage>
    /// Written frames handed back for drawing the next ones into (see `FrameRenderer.render(_:into:)`):
    /// a frame's memory is reused instead of a new 2.7 MB buffer being paged in for every 1280×720 frame.
    /// The frames form a fixed pool (`poolSize`): once it is made, the drawing thread waits for a
    /// spare rather than making another frame whenever the writer is a moment late in handing one
    /// back, so the frames' memory stays bounded and is never made and dropped again mid-run.
    private let spares: BoundedQueue<RGBImage>
    /// Written by both stages, read by the step loop.
    private let stats = Mutex(RenderStats())
    private let finished = DispatchGroup()

    /// - Parameters:
    ///   - inFlight: frames submitted and not yet drawn, at most.
    ///   - drawnAhead: drawn frames waiting to be written, at most.
    ///   - interpolate: blend previous→current by alpha, or draw `current` as it is.
    ///   - sink: where drawn frames go, in order.
    ///   - yieldsToEncoder: run the drawing thread at a lower scheduling priority (nice +10). For
    ///     an offline video, where the encoder process is the bottleneck: when both want a core the
    ///     encoder gets it, and frames drawn ahead (`drawnAhead`) fill the encoder's idle moments.
    ///     The writing thread keeps its priority: the encoder reads each frame in more than one
    ///     pipe-full, and a writer that had to wait for a core to hand over the rest would leave
    ///     the encoder, and a core, idle (measured: 5% longer videos when it yielded too).
    ///   - makeRenderer: called once on the drawing thread, which then owns the renderer.
    public init(inFlight: Int = 4, drawnAhead: Int = 2, interpolate: Bool, sink: FrameSink & Sendable, yieldsToEncoder: Bool = false,
                makeRenderer: @escaping @Sendable () -> FrameRenderer) {
        jobs = BoundedQueue(capacity: inFlight)
        images = BoundedQueue(capacity: drawnAhead)
        let framesHeld = sink.framesHeld
        // Every frame can be in one place at a time: waiting to be written (drawnAhead), being
        // written (1), held by the sink (framesHeld) or being drawn (1). So the drawing thread only
        // waits for a spare while the writer holds one it is about to hand back: never for good.
        let poolSize = drawnAhead + framesHeld + 2
        spares = BoundedQueue(capacity: poolSize)
        finished.enter()
        finished.enter()
        let jobs = self.jobs, images = self.images, spares = self.spares
        Thread { [self] in
            if yieldsToEncoder { Self.lowerThisThreadsPriority() }
            let renderer = makeRenderer()
            var framesMade = 0
            while let job = jobs.take() {
                let start = DispatchTime.now().uptimeNanoseconds
                let snapshot = interpolate ? WorldSnapshot.interpolated(from: job.previous, to: job.current, alpha: job.alpha) : job.current
                let image: RGBImage
                // `take` is nil only once the writer has stopped: the frame drawn then is not written.
                if var spare = spares.poll() ?? (framesMade >= poolSize ? spares.take() : nil) {
                    renderer.render(snapshot, into: &spare)
                    image = spare
                } else {
                    framesMade += 1
                    image = renderer.render(snapshot)
                }
                record { $0.drawTimes.record(Int64(DispatchTime.now().uptimeNanoseconds - start)) }
                if !images.put(image) { break }
            }
            images.close()
            finished.leave()
        }.start()
        Thread { [self] in
            var number = 0
            // Written frames the sink may still hold, oldest first.
            var held: [RGBImage] = []
            while let image = images.take() {
                number += 1
                let start = DispatchTime.now().uptimeNanoseconds
                do throws(FrameWriteError) {
                    try sink.write(image, number: number)
                } catch {
                    record { $0.failure = error }
                    // Stop both stages: nothing more is drawn or written after a failure.
                    jobs.close()
                    images.close()
                    break
                }
                record {
                    $0.writeTimes.record(Int64(DispatchTime.now().uptimeNanoseconds - start))
                    $0.framesWritten += 1
                }
                held.append(image)
                if held.count > framesHeld { _ = spares.offer(held.removeFirst()) }
            }
            // A drawing thread waiting for a spare must not wait for good once nothing is written.
            spares.close()
            do throws(FrameWriteError) {
                try sink.finish()
            } catch {
                record { if $0.failure == nil { $0.failure = error } }
            }
            finished.leave()
        }.start()
    }

    /// Gives the calling thread the drawing thread's lower priority (nice +10), for a caller whose
    /// own work on it (the step loop of an offline video) should yield to the encoder too. Linux
    /// keeps a nice value per thread: `setpriority` with who = 0 changes the calling thread only,
    /// and threads it starts later inherit it. Best effort: a failure leaves the priority as it was.
    public static func lowerThisThreadsPriority() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    }

    private func record(_ update: (inout RenderStats) -> Void) {
        stats.withLock { update(&$0) }
    }

    /// Hands a frame to the render stage. Returns false if it was skipped (queue full and not
    /// waiting) or the pipeline has failed.
    @discardableResult
    public func submit(_ job: FrameJob, waitIfFull: Bool) -> Bool {
        let accepted = waitIfFull ? jobs.put(job) : jobs.offer(job)
        record {
            if !accepted, $0.failure == nil { $0.framesSkipped += 1 }
        }
        return accepted
    }

    /// The first write error, if any; the step loop checks it every frame.
    public var failure: FrameWriteError? { stats.withLock { $0.failure } }

    public var framesWritten: Int { stats.withLock { $0.framesWritten } }

    /// Waits until every accepted frame is drawn and written (or the pipeline failed).
    public func finish() -> RenderStats {
        jobs.close()
        finished.wait()
        return stats.withLock { $0 }
    }
}
