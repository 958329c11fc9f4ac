import Driver
import Foundation
import Outputs
import Physics
import Raster
import SceneModel

/// The frame stage: what happens after each frame's steps. Draws frames through the render
/// pipeline (offline: every `every`-th frame, waiting for room; real time: through the presenter,
/// on the clock's schedule) and tells pages of live frames.
final class FrameOutput: StepStage {
    private let pipeline: RenderPipeline?
    private let presentsInRealTime: Bool
    private let fps: Int
    private var presenter: RealtimePresenter?
    /// Frame slots a real-time run of fixed length presents (nil: until stopped).
    private let slots: Int?
    /// A still image: only the run's last frame is drawn, when the run ends.
    private let drawsLastFrameOnly: Bool
    private var lastJob: FrameJob?
    private let every: Int
    private let liveFrames: (@Sendable (LiveFrameState) -> Void)?
    private let control: LiveControl?
    /// Where the frames go, for messages.
    private let destination: FrameDestination?
    /// The masks' folder, when masks are drawn: the world's parts are checked against what a
    /// mask tells apart at each change (`MaskLimitWatch`).
    private var maskWatch: MaskLimitWatch?

    /// Sets up where frames go, so a bad `--out` ends the run before any step: creates the frame
    /// directory, or checks the video path and starts ffmpeg.
    required init(plan: RunPlan, world: World, onWarning: @escaping (String) -> Void) throws(OutputSetupError) {
        liveFrames = plan.liveFrames
        if case let .live(_, control) = plan.clock { self.control = control } else { control = nil }
        every = plan.frames?.every ?? 1
        destination = plan.frames?.destination
        let scene = plan.start.scene
        let fps = plan.clock.fps ?? scene.stepRate
        self.fps = fps
        if case .image = plan.frames?.destination { drawsLastFrameOnly = true } else { drawsLastFrameOnly = false }
        presentsInRealTime = plan.frames != nil && plan.clock.isRealTime && !drawsLastFrameOnly
        slots = plan.frameCount > 0 ? plan.frameCount : nil
        guard let frames = plan.frames else {
            pipeline = nil
            return
        }
        // The masks' folder is checked and made before the frames' sink starts (an encoder, a file).
        var maskWriter: DirectoryFrameWriter?
        if let masks = frames.masks {
            if let refusal = InstanceMask.refusal(highestBodyID: world.bodyShapes.highestID)
                ?? InstanceMask.refusal(wallCount: world.wallStates().count + world.tumblers.reduce(0) { $0 + $1.wallStates.count }) {
                throw .unsuitable(path: masks, reason: refusal)
            }
            maskWatch = MaskLimitWatch(masks: masks, onWarning: onWarning)
            try DirectoryFrameWriter.prepare(directory: masks, replaceExisting: frames.destination.replacesExisting, masks: true)
            do {
                maskWriter = try DirectoryFrameWriter(maskDirectory: masks, expectedFrames: plan.framesToDraw)
            } catch {
                throw .cannotCreate(error)
            }
        }
        var sink = try Self.makeSink(frames, fps: fps, framesToDraw: plan.framesToDraw, onWarning: onWarning)
        if let maskWriter { sink = MaskedFrameSink(frames: sink, masks: maskWriter) }
        let walls = world.wallStates(), worldSize = scene.worldSize, bodyShapes = world.bodyShapes, joints = world.jointLinks
        var look = scene.render
        if let view = frames.view { look.view = view }
        let colors = look, crateColors = scene.crateColors(in: world), overlays = frames.overlays, drawsMasks = frames.masks != nil
        // Contact points are copied out of Chipmunk only when they are drawn.
        if overlays.contains(.contacts) { world.snapshotsIncludeContacts = true }
        // An offline video's encoder is the bottleneck: the pipeline draws ahead (up to about
        // 32 MB of frames) to fill the encoder's idle moments, and gives way to it when asked.
        let offlineVideo = plan.feedsOfflineEncoder
        let drawnAhead = offlineVideo ? max(2, min(8, (32 << 20) / (frames.width * frames.height * 3))) : 2
        let pipeline = RenderPipeline(inFlight: offlineVideo ? 8 : 4, drawnAhead: drawnAhead, interpolate: plan.interpolate, sink: sink,
                                      yieldsToEncoder: offlineVideo && plan.threadPriority == .yieldToVideoEncoder) {
            FrameRenderer(world: worldSize, walls: walls, bodyShapes: bodyShapes, width: frames.width, height: frames.height, colors: colors,
                          crateColors: crateColors, overlays: overlays, joints: joints, drawsMasks: drawsMasks)
        }
        self.pipeline = pipeline
    }

    /// As the run starts: in real time, frames leave on the clock's schedule from a thread of their own.
    func start() {
        if presentsInRealTime, let pipeline { presenter = RealtimePresenter(fps: fps, every: every, slots: slots, pipeline: pipeline) }
    }

    /// Where the drawn frames go: the directory made, the video checked and ffmpeg started.
    private static func makeSink(_ frames: RunPlan.Frames, fps: Int, framesToDraw: Int,
                                 onWarning: (String) -> Void) throws(OutputSetupError) -> FrameSink & Sendable {
        switch frames.destination {
        case .stream:
            return StreamFrameWriter()
        case let .directory(path, format, replaceExisting):
            // One overwrite rule for every output: a directory that holds anything needs --force,
            // which removes the old frame files, so no stale frame outlives this run.
            try DirectoryFrameWriter.prepare(directory: path, replaceExisting: replaceExisting)
            do {
                return try DirectoryFrameWriter(directory: path, expectedFrames: framesToDraw, format: format)
            } catch {
                throw .cannotCreate(error)
            }
        case let .image(path, _, encoder, replaceExisting):
            return try ImageFrameWriter(path: path, encoder: encoder, replaceExisting: replaceExisting)
        case let .video(path, format, encoderArguments, replaceExisting):
            // A video plays `every`-th frames at the rate they were drawn.
            if fps % frames.every != 0 {
                throw .unsuitable(path: path, reason: "--every \(frames.every) must divide --fps \(fps) for a video (one video frame per drawn frame)")
            }
            return try VideoFrameWriter(path: path, format: format, width: frames.width, height: frames.height, fps: fps / frames.every,
                                        encoderArguments: encoderArguments, replaceExisting: replaceExisting)
        case let .viewer(title):
            return try ViewerFrameWriter(width: frames.width, height: frames.height, fps: max(1, fps / frames.every), title: title)
        }
    }

    /// Whether the loop should keep the snapshots either side of each frame's last step.
    var needsFrameSnapshots: Bool { pipeline != nil || liveFrames != nil }

    /// The render stage's first write error ends the run.
    var endsRunAtFrame: Bool { pipeline?.failure != nil }

    /// Frames written so far (or frames done, when none are drawn).
    func framesDone(_ report: FrameReport) -> Int { pipeline?.framesWritten ?? report.frame }

    /// After a frame's steps.
    func atFrame(_ report: FrameReport, driver: FixedStepDriver) {
        maskWatch?.check(driver.current)
        if drawsLastFrameOnly {
            lastJob = FrameJob(previous: driver.previous, current: driver.current, alpha: report.alpha)
        } else if let presenter {
            presenter.post(FrameJob(previous: driver.previous, current: driver.current, alpha: report.alpha))
        } else if let pipeline, report.frame % every == 0 {
            pipeline.submit(FrameJob(previous: driver.previous, current: driver.current, alpha: report.alpha), waitIfFull: true)
        }
        if let liveFrames {
            let snapshot = driver.current
            liveFrames(LiveFrameState(snapshot: snapshot, hash: StateHash(snapshot),
                                      stepMicroseconds: Double(driver.stepTimes.percentile(0.5)) / 1000,
                                      physicsLoad: driver.counters.peakLoad, droppedSeconds: driver.droppedSeconds,
                                      paused: control?.isPaused ?? false, rewind: control?.rewindState))
        }
    }

    /// Stops presenting and waits for every accepted frame to be written; its part
    /// (`RunOutcome.render`) and the write error that ended it, if one did.
    /// `ending.completed`: the run reached its end (not stopped, halted or failed): a real-time
    /// run then presents its remaining slots, so it writes as many frames as an offline run of
    /// the same length; a still image is drawn from the last frame whatever ended the run.
    func finish(_ ending: RunEnding, into reports: inout StageReports) {
        if let lastJob, let pipeline { pipeline.submit(lastJob, waitIfFull: true) }
        let presented = presenter?.stop(completed: ending.completed)
        let render = pipeline?.finish()
        reports[RunOutcome.Frames.self] = RunOutcome.Frames(render: render, presentedIntervals: presented?.intervals)
        if let render, let failure = render.failure { reports.add(problem(failure, framesWritten: render.framesWritten)) }
    }

    /// A write error as users read it: how far the frames got, and what to do when the viewer failed.
    private func problem(_ failure: FrameWriteError, framesWritten: Int) -> RunProblem {
        if failure.programFailed {
            return RunProblem(.unavailable, failure,
                              advice: "to see the run without a window, write a video (--out out/run.mp4) or watch it in a browser (cratedrop serve SCENE)")
        }
        if failure.stopsRun { return RunProblem(.notice, failure, message: "\(failure.reason) after \(framesWritten) frames; the run stopped there") }
        if case .video = destination {
            return RunProblem(.inputOutput, failure, message: "\(failure); no video was made (\(framesWritten) frames had gone to ffmpeg)")
        }
        return RunProblem(.inputOutput, failure, message: "\(failure); \(framesWritten) complete frames were written before it")
    }
}

extension FrameOutput: PlannedStage {
    static var position: StepPipeline.Position { .frames }

    /// A run that draws no frames and tells no page of them has no frame stage.
    static func make(_ setup: StageSetup) throws(RunSetupError) -> Self? {
        guard setup.plan.frames != nil || setup.plan.liveFrames != nil else { return nil }
        do {
            return try Self(plan: setup.plan, world: setup.world, onWarning: setup.onWarning)
        } catch {
            throw .output(error)
        }
    }
}

extension RunOutcome {
    /// What the frame stage did.
    public struct Frames: Sendable {
        public var render: RenderStats?
        /// Real time: intervals between frames sent to the render stage on the frame schedule.
        public var presentedIntervals: LatencyHistogram?
    }

    /// What the render stage did, when frames were drawn.
    public var render: RenderStats? { stages[Frames.self]?.render }
    /// Real time: intervals between frames sent to the render stage on the frame schedule.
    public var presentedIntervals: LatencyHistogram? { stages[Frames.self]?.presentedIntervals }
}

/// One frame of a live run, as pages get it.
public struct LiveFrameState: Sendable {
    public var snapshot: WorldSnapshot
    public var hash: StateHash
    /// Median step time so far, µs.
    public var stepMicroseconds: Double
    /// Step time over simulated time, the peak over measurement windows (1 = physics uses all its real time).
    public var physicsLoad: Double
    public var droppedSeconds: Double
    public var paused: Bool
    /// What the run can be rewound to now; nil: it keeps no history (`LiveHistory`).
    public var rewind: RewindState?

    public init(snapshot: WorldSnapshot, hash: StateHash, stepMicroseconds: Double, physicsLoad: Double, droppedSeconds: Double,
                paused: Bool, rewind: RewindState? = nil) {
        self.snapshot = snapshot
        self.hash = hash
        self.stepMicroseconds = stepMicroseconds
        self.physicsLoad = physicsLoad
        self.droppedSeconds = droppedSeconds
        self.paused = paused
        self.rewind = rewind
    }
}

/// A stage that knows how many frames are done, for a progress line.
protocol FrameProgress {
    /// Frames written so far (or frames done, when none are drawn).
    func framesDone(_ report: FrameReport) -> Int
}

extension FrameOutput: FrameProgress {}
