import Driver
import Outputs
import Raster
import SceneModel
import Script

/// Everything about one run, as a value: where it starts, how long it lasts, which clock paces
/// it, what feeds it, what it writes and what it is checked against. `run`, `hash`, `replay` and
/// `serve` only turn their options into a plan; `RunEngine` carries any plan out through the one
/// step pipeline (inputs → step → record → check → data → hash trail, then frames).
public struct RunPlan: Sendable {
    /// The scene (or record) the run starts from.
    public var start: RunStart
    /// When the run ends.
    public var length: RunEnd
    /// What paces the frames.
    public var clock: Clock
    /// Where gravity changes come from during the run.
    public var gravity: GravityInputPlan?
    /// Write a run record here.
    public var recordPath: String?
    /// Keep the world's saved state in the record every this many steps (`--keyframes K`, at
    /// least 1), so a replay can start near any step (`RunStart.record(_:path:from:)`).
    public var keyframeEvery: Int?
    /// Save the world's state here at the end (`--save-state FILE`).
    public var saveStatePath: String?
    /// Save the world's state every K steps into a folder (`--save-every STEPS DIR`).
    public var periodicStates: PeriodicStates?
    /// Check at every step that a saved state continues exactly, looking this many steps ahead
    /// (`hash --synctest K`, `SyncTestStage`); portable backend only.
    public var synctest: Int?
    /// The deepest look-ahead a synctest takes (each look-ahead's states are held in memory).
    public static let maxSyncTestDepth = 1000
    /// Check the run against these checkpoints as it goes; it halts at the first that differs.
    public var checkpoints: [Checkpoint]?
    /// ... and the world's saved state against these keyframes' digests, at their steps.
    public var keyframeChecks: [KeyframeDigest] = []
    /// What parts from the record when a check fails, in the message (`the run`, `FILE: the replay`).
    public var checkedRun = "the run"
    /// Trajectories and per-step statistics to write.
    public var data = DataOutputSettings()
    /// State hashes every K steps (`cratedrop hash`).
    public var hashTrail: HashTrail?
    /// Changes to bodies at step boundaries that no input line makes (a sweep's counterfactual),
    /// applied after that step's inputs; recorded as the input lines that say them (a position set has none).
    public var edits: [WorldEdit] = []
    /// Where a counterfactual saves the world at its branch step, before its change (a saved-state
    /// file people can load and branch again); the run then goes on from that file's state,
    /// restored. A world saved states do not cover goes on without it, with a warning.
    public var branchStatePath: String?
    /// Frames to draw; nil: headless.
    public var frames: Frames?
    /// Keep the live run's recent past so pages can rewind it (`serve`, clock `.live` only;
    /// portable backend only): `LiveHistory`.
    public var rewind: LiveHistory.Settings?
    /// Live frames for pages (`cratedrop serve`), told after every frame.
    public var liveFrames: (@Sendable (LiveFrameState) -> Void)?
    /// Warn once, through the engine's `onWarning`, when a body leaves the world (`LeftWorldStage`).
    public var watchesBodiesLeaving = true
    /// Draw frames blended between the last two steps.
    public var interpolate = true
    /// Lets the run lower thread priorities so an offline video's encoder gets the cores (see
    /// `ThreadPriority`). Off unless asked: a library never changes its caller's thread by itself.
    public var threadPriority: ThreadPriority = .unchanged

    /// A plan that runs `start` for `length` on `clock`, with no inputs or outputs yet.
    public init(start: RunStart, length: RunEnd, clock: Clock) {
        self.start = start
        self.length = length
        self.clock = clock
    }

    /// Saved states every `every` steps, in `directory` (created if missing; its parent must exist).
    public struct PeriodicStates: Sendable, Equatable {
        public var every: Int
        public var directory: String

        public init(every: Int, directory: String) {
            self.every = every
            self.directory = directory
        }

        /// The file of the state saved after `step` steps: `DIR/step-000000300.state` (nine
        /// digits, more when needed, so a listing sorts by step).
        public func path(atStep step: Int) -> String {
            let digits = String(step)
            return "\(directory)/step-\(String(repeating: "0", count: max(0, 9 - digits.count)))\(digits).state"
        }
    }

    /// The frame clock.
    public enum Clock: Sendable {
        /// Frames at exactly k/fps s, as fast as the machine allows; every owed step is taken.
        case virtual(fps: Int)
        /// One frame per step (a virtual clock at the step rate): headless step-by-step runs.
        case everyStep
        /// The wall clock at `fps`, with the death-spiral guard.
        case wall(fps: Int, guard: Guard = Guard())
        /// The wall clock at `fps` with the guard, paused, stepped and restarted by `control`.
        case live(fps: Int, control: LiveControl)

        /// Frames per second, or nil for `everyStep` (the step rate).
        public var fps: Int? {
            switch self {
            case let .virtual(fps), let .wall(fps, _), let .live(fps, _): fps
            case .everyStep: nil
            }
        }

        /// Whether frames follow the wall clock (the guard on, input never waited for).
        public var isRealTime: Bool {
            switch self {
            case .virtual, .everyStep: false
            case .wall, .live: true
            }
        }
    }

    /// The death-spiral guard's caps in real time (docs/driver.md).
    public struct Guard: Sendable, Equatable {
        /// Most steps in one frame, and most steps of debt carried to the next.
        public var maxStepsPerFrame: Int
        /// Physics budget per frame; nil: one frame interval.
        public var budgetNanoseconds: Int64?

        public init(maxStepsPerFrame: Int = 8, budgetNanoseconds: Int64? = nil) {
            self.maxStepsPerFrame = maxStepsPerFrame
            self.budgetNanoseconds = budgetNanoseconds
        }
    }

    /// Gravity changes during a run: a JSON Lines stream, or tilts from pages (`clock` `.live`).
    public struct GravityInputPlan: Sendable {
        public enum Source: Sendable {
            /// JSON Lines from this path: a file, a named pipe, or "-" for stdin. A run record is
            /// read as its own gravity changes.
            case stream(path: String, axes: AxisPreset = .portrait)
            /// Tilts posted to a live control.
            case live(LiveControl)
        }

        public var source: Source
        /// What a malformed line does.
        public var badLines: GravityInput.BadLinePolicy

        public init(_ source: Source, badLines: GravityInput.BadLinePolicy = .stop) {
            self.source = source
            self.badLines = badLines
        }
    }

    /// `STEP HASH` every `every` steps and after the last: `emit` gets each state and returns
    /// false when the run should stop (its output failed).
    public struct HashTrail: Sendable {
        public var every: Int
        public var emit: @Sendable (WorldSnapshot) -> Bool

        public init(every: Int, emit: @escaping @Sendable (WorldSnapshot) -> Bool) {
            precondition(every >= 1, "a hash trail's interval is at least 1 step")
            self.every = every
            self.emit = emit
        }
    }

    /// What to draw: every `every`-th frame at `width`×`height` pixels, and where it goes.
    public struct Frames: Sendable {
        public var destination: FrameDestination
        public var width: Int
        public var height: Int
        public var every: Int
        /// The part of the world to show; nil: the scene's `render.view`, else the whole world.
        public var view: ViewRect?
        /// Debug drawing over the frames.
        public var overlays: Overlays
        /// A directory for each frame's instance mask (`mask-00001.png`, ...), drawn in the same
        /// pass; the destination's overwrite rule (`--force`) applies to it too.
        public var masks: String?

        public init(destination: FrameDestination, width: Int, height: Int, every: Int = 1, view: ViewRect? = nil,
                    overlays: Overlays = [], masks: String? = nil) {
            self.masks = masks
            self.destination = destination
            self.width = width
            self.height = height
            self.every = every
            self.view = view
            self.overlays = overlays
        }
    }

    /// Whether threads of the run may be lowered in priority.
    public enum ThreadPriority: Sendable, Equatable {
        case unchanged
        /// For an offline video, the drawing thread and the thread calling `RunEngine.run` give
        /// way to the encoder (nice +10), after the encoder and the writing thread have started
        /// (they keep their priority). Linux keeps a nice value per thread, and an unprivileged
        /// thread cannot raise it again: the calling thread stays lowered after the run.
        case yieldToVideoEncoder
    }

    /// Frames go to a video encoder as fast as it takes them: the encoder is the bottleneck.
    public var feedsOfflineEncoder: Bool {
        if case .video = frames?.destination { !clock.isRealTime } else { false }
    }

    /// When the run ends: `length`, or sooner when a still image is asked for at an earlier time
    /// (`FrameDestination.image` with `at`), since its frame is the run's last.
    public var end: RunEnd {
        guard case let .image(_, at?, _, _) = frames?.destination, case let .duration(duration) = length,
              at.isLess(than: duration) else { return length }
        return .duration(at)
    }

    /// Frames the clock delivers in all, for a run of fixed length (0 when only a stop ends it).
    public var frameCount: Int {
        let stepRate = start.scene.stepRate
        switch (end, clock.fps) {
        case let (.duration(duration), fps?): return duration.frameCount(fps: fps)
        case let (.duration(duration), nil): return duration.steps(atRate: stepRate)
        case let (.steps(steps), nil): return steps
        case let (.steps(steps), fps?):
            // Frames at k/fps until steps/stepRate: ceil(steps × fps / stepRate).
            let (product, overflow) = steps.multipliedReportingOverflow(by: fps)
            return overflow ? Int.max : product / stepRate + (product % stepRate == 0 ? 0 : 1)
        case (.never, _): return 0
        }
    }

    /// Frames drawn: every `every`-th of `frameCount`, rounded up; one for a still image.
    public var framesToDraw: Int {
        if case .image = frames?.destination { return min(1, frameCount) }
        let every = frames?.every ?? 1
        return frameCount / every + (frameCount % every == 0 ? 0 : 1)
    }
}

/// Where drawn frames go.
public enum FrameDestination: Sendable, Equatable, CustomStringConvertible {
    /// `DIR/frame-00001.ppm` (or `.png`), ... (DIR is created if its parent exists). A directory
    /// that holds anything is refused unless `replaceExisting` (`--force`), which removes the
    /// frame files already there first (`DirectoryFrameWriter.prepare`).
    case directory(String, format: FrameFileFormat = .ppm, replaceExisting: Bool = false)
    /// Back to back as a PPM stream on stdout.
    case stream
    /// A video file made by ffmpeg.
    /// - Parameters:
    ///   - encoderArguments: ffmpeg output options replacing the format's defaults.
    ///   - replaceExisting: replace a file already at the path (`--force`).
    case video(String, format: VideoFormat, encoderArguments: [String]? = nil, replaceExisting: Bool = false)
    /// One still PNG image of the run's last frame; with `at`, the run ends at that time (if
    /// earlier than its length), so the image shows the frame at `at`.
    /// - Parameters:
    ///   - encoder: the PNG compression level.
    ///   - replaceExisting: replace a file already at the path (`--force`).
    case image(String, at: DecimalSeconds? = nil, encoder: PNGEncoder = PNGEncoder(), replaceExisting: Bool = false)
    /// A window (ffplay) showing the frames as they come, titled `title`.
    case viewer(title: String)

    /// Whether an existing output may be replaced (`--force`).
    public var replacesExisting: Bool {
        switch self {
        case let .directory(_, _, replace), let .video(_, _, _, replace), let .image(_, _, _, replace): replace
        case .stream, .viewer: false
        }
    }

    /// The path, `-` for the stream, `view` for the window.
    public var description: String {
        switch self {
        case let .directory(path, _, _), let .video(path, _, _, _), let .image(path, _, _, _): path
        case .stream: "-"
        case .viewer: "view"
        }
    }
}

extension RunPlan.Frames {
    /// How world points map to these frames' pixels for `scene`: the transform the renderer
    /// draws with, for labels written beside the frames (a trace's bounding boxes, `meta.json`).
    public func viewport(for scene: Scene) -> Viewport {
        Viewport(view: view ?? scene.render.view ?? ViewRect(min: .zero, max: scene.worldSize), imageWidth: width, imageHeight: height)
    }
}
