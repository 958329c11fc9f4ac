import Driver
import Foundation
import Outputs
import Physics
import Raster
import SceneModel

/// How a run is driven and what it draws (README, "The fixed-timestep driver", "Rendering").
public struct RunSettings: Sendable {
    /// Where drawn frames go.
    public enum Destination: Sendable, Equatable, CustomStringConvertible {
        /// `DIR/frame-00001.ppm` (or `.png`), ... (DIR is created if its parent exists).
        case directory(String, format: FrameFileFormat = .ppm)
        /// Back to back as a PPM stream on stdout.
        case stream
        /// A video file made by ffmpeg (README, "Video").
        /// - Parameters:
        ///   - encoderArguments: ffmpeg output options replacing the format's defaults.
        ///   - replaceExisting: replace a file already at the path (`--force`).
        case video(String, format: VideoFormat, encoderArguments: [String]? = nil, replaceExisting: Bool = false)
        /// A window (ffplay) showing the frames as they come, titled `title`.
        case viewer(title: String)

        /// The path, `-` for the stream, `view` for the window.
        public var description: String {
            switch self {
            case let .directory(path, _), let .video(path, _, _, _): path
            case .stream: "-"
            case .viewer: "view"
            }
        }
    }

    /// What to draw: every `every`-th frame at `width`×`height` pixels.
    public struct Frames: Sendable {
        public var destination: Destination
        public var width: Int
        public var height: Int
        public var every: Int
        /// The part of the world to show; nil: the scene's `render.view`, else the whole world.
        public var view: ViewRect?
        /// Debug drawing over the frames.
        public var overlays: Overlays

        public init(destination: Destination, width: Int, height: Int, every: Int = 1, view: ViewRect? = nil, overlays: Overlays = []) {
            self.view = view
            self.overlays = overlays
            self.destination = destination
            self.width = width
            self.height = height
            self.every = every
        }
    }

    /// Simulated time to run; at most floor(duration × step_rate) steps are taken.
    public var duration: DecimalSeconds
    public var fps: Int
    /// Paced by the wall clock with the death-spiral guard on, else a virtual clock (offline).
    public var realtime: Bool
    /// Draw frames blended between the last two steps.
    public var interpolate: Bool
    public var maxStepsPerFrame: Int
    /// Physics budget per frame in real time; nil: one frame interval.
    public var budgetNanoseconds: Int64?
    /// nil: headless.
    public var frames: Frames?
    /// Trajectories and per-step statistics to write.
    public var data = DataOutputSettings()

    /// Frames go to a video encoder as fast as it takes them: the encoder is the bottleneck, and
    /// the render stage gives way to it (`RenderPipeline`'s `yieldsToEncoder`).
    public var feedsOfflineEncoder: Bool {
        if case .video = frames?.destination { !realtime } else { false }
    }

    public init(duration: DecimalSeconds, fps: Int = 60, realtime: Bool = false, interpolate: Bool = true,
                maxStepsPerFrame: Int = 8, budgetNanoseconds: Int64? = nil, frames: Frames? = nil) {
        self.duration = duration
        self.fps = fps
        self.realtime = realtime
        self.interpolate = interpolate
        self.maxStepsPerFrame = maxStepsPerFrame
        self.budgetNanoseconds = budgetNanoseconds
        self.frames = frames
    }
}

/// What a run did: the driver's result and, when frames were drawn, the render stage's.
public struct RunOutcome: Sendable {
    public var result: RunResult
    public var render: RenderStats?
    /// Real time: intervals between frames sent to the render stage on the frame schedule.
    public var presentedIntervals: LatencyHistogram?
    /// States traced and steps measured, when `--trace` or `--stats` were given.
    public var stepsTraced = 0
    public var stepsMeasured = 0
    /// What the trace and stats files could not write (a full disk), each naming its file.
    public var dataFailures: [FrameWriteError] = []
}

/// One run from a built world to its outcome: the fixed-step driver on a virtual or wall clock,
/// the render stage (drawing and writing on threads of their own) and, in real time, the
/// presenter that sends frames on the clock's schedule. Stop requests end it at a frame boundary.
public final class RunSession {
    public let settings: RunSettings
    /// Frames the clock delivers in all, and frames drawn (every `every`-th).
    public let frameCount: Int
    public let framesToDraw: Int
    private let scene: Scene
    private let simulation: Simulation
    private let recorder: DataRecorder?
    private let pipeline: RenderPipeline?

    /// Prepares the run and its output, so a bad `--out` ends it before any step: creates the frame
    /// directory, or checks the video path and starts ffmpeg.
    /// - Parameters:
    ///   - scene: the scene the world was built from (step rate, world size, colours).
    ///   - world: the built world (its walls are drawn once into the static layer).
    ///   - simulation: what the driver steps (the world, or it wrapped with inputs and records).
    ///   - settings: how to drive and what to draw.
    ///   - onWarning: told of frame files already in the directory.
    /// - Throws: `OutputSetupError` when the output cannot be set up.
    public init(scene: Scene, world: World, simulation: Simulation, settings: RunSettings,
                onWarning: (String) -> Void) throws(OutputSetupError) {
        self.scene = scene
        self.settings = settings
        frameCount = settings.duration.frameCount(fps: settings.fps)
        let every = settings.frames?.every ?? 1
        // ceil(frames / every), without the overflow of frames + every - 1.
        framesToDraw = frameCount / every + (frameCount % every == 0 ? 0 : 1)
        // The frame output first: a refused --out must not have truncated an existing trace.
        var sink: (FrameSink & Sendable)?
        if let frames = settings.frames {
            sink = try RunSession.makeSink(frames, fps: settings.fps, framesToDraw: framesToDraw, onWarning: onWarning)
        }
        if settings.data.isEmpty {
            recorder = nil
            self.simulation = simulation
        } else {
            let recorder = try DataRecorder(simulation, world: world, scene: scene, settings: settings.data, tracesFrames: true)
            self.recorder = recorder
            self.simulation = recorder
        }
        guard let frames = settings.frames, let sink else {
            pipeline = nil
            return
        }
        let walls = world.wallStates(), worldSize = scene.worldSize
        var look = scene.render
        if let view = frames.view { look.view = view }
        let colors = look, crateColors = Self.crateColors(scene: scene, world: world), overlays = frames.overlays
        // Contact points are copied out of Chipmunk only when they are drawn.
        if overlays.contains(.contacts) { world.snapshotsIncludeContacts = true }
        // An offline video's encoder is the bottleneck: the pipeline gives way to it and draws
        // ahead (up to about 32 MB of frames) to fill the encoder's idle moments.
        let offlineVideo = settings.feedsOfflineEncoder
        let drawnAhead = offlineVideo ? max(2, min(8, (32 << 20) / (frames.width * frames.height * 3))) : 2
        pipeline = RenderPipeline(inFlight: offlineVideo ? 8 : 4, drawnAhead: drawnAhead, interpolate: settings.interpolate, sink: sink,
                                  yieldsToEncoder: offlineVideo) {
            FrameRenderer(world: worldSize, walls: walls, width: frames.width, height: frames.height, colors: colors,
                          crateColors: crateColors, overlays: overlays)
        }
    }

    /// Where the drawn frames go: the directory made, the video checked and ffmpeg started.
    private static func makeSink(_ frames: RunSettings.Frames, fps: Int, framesToDraw: Int,
                                 onWarning: (String) -> Void) throws(OutputSetupError) -> FrameSink & Sendable {
        switch frames.destination {
        case .stream:
            return StreamFrameWriter()
        case let .directory(path, format):
            let sink: DirectoryFrameWriter
            do {
                sink = try DirectoryFrameWriter(directory: path, expectedFrames: framesToDraw, format: format)
            } catch {
                throw .cannotCreate(error)
            }
            let earlier = (try? FileManager.default.contentsOfDirectory(atPath: path))?
                .filter { $0.hasPrefix("frame-") && $0.hasSuffix("." + format.fileExtension) }.count ?? 0
            if earlier > 0 {
                onWarning("\(path) already holds \(earlier) frame files; each new frame replaces the one of its name, others stay as they are")
            }
            return sink
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

    /// The crates the scene gives a colour of their own, by the ids the world gave them (the
    /// world adds the scene's crates in `allCrates()` order).
    public static func crateColors(scene: Scene, world: World) -> [BodyID: RGB] {
        var colors: [BodyID: RGB] = [:]
        for (spec, crate) in zip(scene.allCrates(), world.crates) {
            if let color = spec.color, let id = crate.id { colors[id] = color }
        }
        return colors
    }

    /// Runs to the end, or to the first frame boundary after `shouldStop` says so (or the render
    /// stage fails). `onFrame` gets each frame's load warning, if any, and the frames done so far.
    public func run(shouldStop: @escaping () -> Bool, onFrame: (_ loadWarning: LoadWarning?, _ framesDone: Int) -> Void) -> RunOutcome {
        var configuration = DriverConfiguration(stepRate: scene.stepRate, fps: settings.fps, guardEnabled: settings.realtime)
        configuration.maxStepsPerFrame = settings.maxStepsPerFrame
        configuration.maxDebtSteps = settings.maxStepsPerFrame
        if let budget = settings.budgetNanoseconds { configuration.budgetNanoseconds = budget }
        let stopwatch = MonotonicStopwatch()
        let clock: FrameClock = settings.realtime ? WallFrameClock(fps: settings.fps, stopwatch: stopwatch)
            : VirtualFrameClock(fps: settings.fps)
        let loop = RunLoop(simulation: simulation, configuration: configuration, clock: clock, stopwatch: stopwatch,
                           duration: settings.duration, capturesSnapshots: pipeline != nil || recorder?.tracesFrames == true)
        let every = settings.frames?.every ?? 1
        // Real time: frames leave on the clock's schedule from a thread of their own.
        let presenter = settings.realtime ? pipeline.map { RealtimePresenter(fps: settings.fps, every: every, pipeline: $0) } : nil
        let pipeline = self.pipeline, recorder = self.recorder
        let result = loop.run(shouldStop: { shouldStop() || pipeline?.failure != nil }) { report, driver in
            recorder?.traceFrame(driver.current)
            if let presenter {
                presenter.post(FrameJob(previous: driver.previous, current: driver.current, alpha: report.alpha))
            } else if let pipeline, report.frame % every == 0 {
                pipeline.submit(FrameJob(previous: driver.previous, current: driver.current, alpha: report.alpha), waitIfFull: true)
            }
            onFrame(report.loadWarning, pipeline?.framesWritten ?? report.frame)
        }
        let presented = presenter?.stop()
        var outcome = RunOutcome(result: result, render: pipeline?.finish(), presentedIntervals: presented?.intervals)
        if let recorder {
            outcome.dataFailures = recorder.finish()
            outcome.stepsTraced = recorder.stepsTraced
            outcome.stepsMeasured = recorder.stepsMeasured
        }
        return outcome
    }
}
