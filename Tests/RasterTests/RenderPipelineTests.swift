import Foundation
import Outputs
import Raster
import SceneModel
import Testing

/// A sink that records frame numbers, can be held shut, and can fail at a chosen frame.
final class RecordingSink: FrameSink, @unchecked Sendable {
    private let lock = NSLock()
    private var numbers: [Int] = []
    let gate = DispatchSemaphore(value: 0)
    let gated: Bool
    let failAt: Int?

    init(gated: Bool = false, failAt: Int? = nil) {
        self.gated = gated
        self.failAt = failAt
    }

    var written: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return numbers
    }

    func write(_ image: RGBImage, number: Int) throws(FrameWriteError) {
        if gated { gate.wait() }
        if number == failAt { throw FrameWriteError(target: "sink", reason: "failed on purpose") }
        lock.lock()
        numbers.append(number)
        lock.unlock()
    }
}

/// A sink that keeps every frame it is given, as a sink may.
final class KeepingSink: FrameSink, @unchecked Sendable {
    private let lock = NSLock()
    private var images: [RGBImage] = []
    let framesHeld: Int

    init(framesHeld: Int) { self.framesHeld = framesHeld }

    var kept: [RGBImage] {
        lock.lock()
        defer { lock.unlock() }
        return images
    }

    func write(_ image: RGBImage, number: Int) throws(FrameWriteError) {
        lock.lock()
        images.append(image)
        lock.unlock()
    }
}

@Suite struct RenderPipelineTests {
    static func job(_ step: Int) -> FrameJob {
        let snapshot = WorldSnapshot(step: step, bodies: [])
        return FrameJob(previous: snapshot, current: snapshot, alpha: 0)
    }

    static func renderer() -> FrameRenderer {
        FrameRenderer(world: Vec2(10, 10), walls: [], bodyShapes: .none, width: 8, height: 8, colors: RenderDefaults())
    }

    @Test func everyAcceptedFrameIsWrittenInOrder() {
        let sink = RecordingSink()
        let pipeline = RenderPipeline(interpolate: true, sink: sink, makeRenderer: Self.renderer)
        for step in 1...50 { #expect(pipeline.submit(Self.job(step), waitIfFull: true)) }
        let stats = pipeline.finish()
        #expect(sink.written == Array(1...50))
        #expect(stats.framesWritten == 50 && stats.framesSkipped == 0 && stats.drawTimes.count == 50)
    }

    /// The pipeline draws new frames into the memory of written ones; a sink that keeps frames
    /// (more than it declares, even) still holds each frame exactly as it was drawn.
    @Test(arguments: [0, 1])
    func framesASinkKeepsAreNeverDrawnOver(framesHeld: Int) {
        let sink = KeepingSink(framesHeld: framesHeld)
        let pipeline = RenderPipeline(inFlight: 2, interpolate: false, sink: sink, makeRenderer: { FrameRecyclingTests.renderer() })
        for n in 0..<30 {
            let snapshot = FrameRecyclingTests.snapshot(n)
            #expect(pipeline.submit(FrameJob(previous: snapshot, current: snapshot, alpha: 1), waitIfFull: true))
        }
        #expect(pipeline.finish().framesWritten == 30)
        let reference = FrameRecyclingTests.renderer()
        #expect(sink.kept.count == 30)
        for (n, image) in sink.kept.enumerated() { #expect(image == reference.render(FrameRecyclingTests.snapshot(n)), "frame \(n)") }
    }

    /// With the writer held, at most inFlight + 2 drawn + 1 being written frames fit; a real-time
    /// submitter is then refused at once instead of waiting, and the refusals are counted.
    @Test(.timeLimit(.minutes(3)))
    func aStalledWriterMakesRealTimeFramesSkipNotWait() {
        let sink = RecordingSink(gated: true)
        let pipeline = RenderPipeline(inFlight: 2, interpolate: false, sink: sink, makeRenderer: Self.renderer)
        var accepted = 0
        for step in 1...100 where pipeline.submit(Self.job(step), waitIfFull: false) { accepted += 1 }
        #expect(accepted <= 2 + 2 + 1 + 1)
        for _ in 0..<100 { sink.gate.signal() }
        let stats = pipeline.finish()
        #expect(stats.framesSkipped == 100 - accepted)
        #expect(stats.framesWritten == accepted && sink.written == Array(1...accepted))
    }

    /// Frames drawn ahead of the writer are bounded by `drawnAhead`: with the writer held, the
    /// drawing thread stops after that many and the step loop after `inFlight` more.
    @Test(.timeLimit(.minutes(3)))
    func drawnAheadBoundsTheFramesWaitingToBeWritten() throws {
        let sink = RecordingSink(gated: true)
        let pipeline = RenderPipeline(inFlight: 3, drawnAhead: 6, interpolate: false, sink: sink, makeRenderer: Self.renderer)
        var accepted = 0
        // Waiting submits fill every place (3 jobs + 6 drawn + 1 in the writer's hands); the next is refused.
        for step in 1...10 where pipeline.submit(Self.job(step), waitIfFull: true) { accepted += 1 }
        #expect(accepted == 10)
        var refused = false
        for _ in 0..<200 where !refused {
            refused = !pipeline.submit(Self.job(11), waitIfFull: false)
            if !refused { accepted += 1 }
        }
        #expect(refused && accepted <= 3 + 6 + 1 + 1)
        for _ in 0..<100 { sink.gate.signal() }
        #expect(pipeline.finish().framesWritten == accepted)
    }

    /// For an offline video the drawing thread gives way to the encoder (nice +10); the writing
    /// thread, which hands the encoder its frames, keeps the process's priority, as both threads do
    /// otherwise. The renderer is made on the drawing thread and the sink called on the writing
    /// thread: each reports the priority it sees.
    @Test(arguments: [false, true])
    func yieldingToTheEncoderLowersTheDrawingThreadsPriority(yields: Bool) {
        final class PrioritySink: FrameSink, @unchecked Sendable {
            var seen: Int32 = -100
            func write(_ image: RGBImage, number: Int) throws(FrameWriteError) {
                seen = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            }
        }
        final class Seen: @unchecked Sendable { var priority: Int32 = -100 }
        let base = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let sink = PrioritySink(), drawing = Seen()
        let pipeline = RenderPipeline(interpolate: false, sink: sink, yieldsToEncoder: yields) {
            drawing.priority = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            return Self.renderer()
        }
        pipeline.submit(Self.job(1), waitIfFull: true)
        #expect(pipeline.finish().framesWritten == 1)
        #expect(drawing.priority == (yields ? min(19, base + 10) : base))
        #expect(sink.seen == base)
    }

    @Test func theFirstWriteErrorStopsThePipeline() {
        let sink = RecordingSink(failAt: 3)
        let pipeline = RenderPipeline(interpolate: false, sink: sink, makeRenderer: Self.renderer)
        for step in 1...3 { pipeline.submit(Self.job(step), waitIfFull: true) }
        let stats = pipeline.finish()
        #expect(stats.failure == FrameWriteError(target: "sink", reason: "failed on purpose"))
        #expect(stats.framesWritten == 2 && sink.written == [1, 2])
        #expect(!pipeline.submit(Self.job(4), waitIfFull: true))
    }
}
