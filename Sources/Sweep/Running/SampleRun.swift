#if canImport(Glibc)
import Glibc
#endif
import Driver
import Outputs
import Physics
import Raster
import SceneModel
import Script
import Session
import Synchronization

/// One sample carried out as a `RunPlan` by a `RunEngine`, in this process, on the calling
/// thread: the same engine as `cratedrop hash`, so a sample's hash is the hash that command
/// prints for the same scene, length and gravity script.
public enum SampleRun {
    /// The counterfactual's branch state in a sample's folder.
    public static let branchStateName = "branch.state"

    /// What to run and where its files go.
    public struct Request: Sendable {
        public var scene: Scene
        /// `scene` as checked when it was read or made: its world is built without checking it
        /// again. nil: checked when the world is built.
        public var checkedScene: CheckedScene?
        /// The scene's text, as a record embeds it.
        public var sceneText: [UInt8]
        /// The saved state to continue, when branching.
        public var state: SavedStateFile?
        public var steps: Int
        /// The gravity script's path (read as a stream, as `--gravity` reads it).
        public var gravityPath: String?
        public var outputs: SampleOutputs
        /// The folder the outputs go into; nil: none are written (verify needs only the hashes).
        public var folder: String?
        /// The sample's counterfactual change, if any.
        public var edits: [WorldEdit] = []

        public init(scene: Scene, sceneText: [UInt8], state: SavedStateFile?, steps: Int, gravityPath: String?,
                    outputs: SampleOutputs, folder: String?) {
            self.scene = scene
            self.sceneText = sceneText
            self.state = state
            self.steps = steps
            self.gravityPath = gravityPath
            self.outputs = outputs
            self.folder = folder
        }

        /// A request for a checked scene.
        public init(checked: CheckedScene, sceneText: [UInt8], state: SavedStateFile?, steps: Int, gravityPath: String?,
                    outputs: SampleOutputs, folder: String?) {
            self.init(scene: checked.scene, sceneText: sceneText, state: state, steps: steps, gravityPath: gravityPath, outputs: outputs,
                      folder: folder)
            checkedScene = checked
        }
    }

    /// What a completed run gave.
    public struct Result: Sendable {
        public var hash: StateHash
        public var startStep: Int
        public var steps: Int
        /// `STEP HASH` lines, when `outputs.hashEvery` asked for them.
        public var trail: [String]
        public var finalSnapshot: WorldSnapshot
        public var warnings: [String]
        public var wallSeconds: Double
        /// CPU time of the calling thread for the run.
        public var cpuSeconds: Double
        /// Frames written, when `outputs.frames` asked for them.
        public var framesWritten: Int?
        /// How the frames were drawn, when `outputs.frames` asked for them.
        public var viewport: Viewport?
    }

    /// Why a run gave no result.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The run could not be set up (a world the engine refuses, an output it cannot create).
        case setup(RunSetupError)
        /// The run went wrong as it ran (a gravity line refused, a state it cannot save).
        case run(RunProblem)
        /// An output could not be written as it ran (a full disk, a file-size limit): the
        /// folder's fault, not the sample's values, as `cratedrop run` says with 74.
        case output(RunProblem)
        /// `shouldStop` ended it before its last step.
        case stopped

        /// The run's problem as a sample's failure: an input or output failure is the folder's.
        init(_ problem: RunProblem) {
            self = problem.kind == .inputOutput ? .output(problem) : .run(problem)
        }

        public var description: String {
            switch self {
            case let .setup(error): error.description
            case let .run(problem), let .output(problem): problem.description
            case .stopped: "stopped before its last step"
            }
        }
    }

    /// Runs `request` to its end, or until `shouldStop` (checked every step) says so.
    public static func run(_ request: Request, shouldStop: @escaping @Sendable () -> Bool) -> Swift.Result<Result, Failure> {
        let stopwatch = MonotonicStopwatch()
        let started = stopwatch.nanoseconds(), cpuStarted = threadCPUSeconds()
        let start: RunStart
        switch (request.state, request.checkedScene) {
        case let (state?, checked?): start = .state(state, scene: checked)
        case let (state?, nil): start = .state(state, scene: request.scene)
        case let (nil, checked?): start = .scene(checked, file: "scene.json", text: request.sceneText)
        case (nil, nil): start = .scene(request.scene, file: "scene.json", text: request.sceneText)
        }
        let frameRate = request.outputs.frames?.fps ?? (request.outputs.image ? 60 : nil)
        var plan = RunPlan(start: start, length: .steps(request.steps), clock: frameRate.map { .virtual(fps: $0) } ?? .everyStep)
        let trail = Mutex<[String]>([])
        if let every = request.outputs.hashEvery {
            plan.hashTrail = RunPlan.HashTrail(every: every) { snapshot in
                trail.withLock { $0.append("\(snapshot.step) \(StateHash(snapshot))") }
                return true
            }
        }
        if let folder = request.folder {
            let outputs = request.outputs
            if let trace = outputs.trace {
                plan.data.tracePath = "\(folder)/trace.\(trace.rawValue)"
                // With frames and no trace_every, one row per body per frame (with boxes); else every K steps.
                plan.data.traceEvery = outputs.traceHasBoxes ? nil : outputs.traceEvery ?? 1
            }
            if let events = outputs.events { plan.data.eventsPath = "\(folder)/events.\(events.rawValue)" }
            if outputs.stats { plan.data.statsPath = "\(folder)/stats.jsonl" }
            if outputs.record { plan.recordPath = "\(folder)/run.rec" }
            if outputs.saveState { plan.saveStatePath = "\(folder)/end.state" }
            if outputs.image {
                plan.frames = RunPlan.Frames(destination: .image("\(folder)/end.png"), width: request.scene.render.imageWidth,
                                             height: request.scene.render.imageHeight)
            }
            if let frames = outputs.frames {
                plan.frames = frameOutput(frames, scene: request.scene, folder: folder)
                // Frames fall on steps (the rate divides the step rate): nothing between two steps is drawn.
                plan.interpolate = false
                if outputs.traceHasBoxes { plan.data.traceBoxes = plan.frames?.viewport(for: request.scene) }
            }
        }
        if let gravityPath = request.gravityPath { plan.gravity = RunPlan.GravityInputPlan(.stream(path: gravityPath)) }
        plan.edits = request.edits
        // A counterfactual's branch: the world saved at its step, before the change, in its folder.
        if !request.edits.isEmpty, let folder = request.folder, World.canSaveState { plan.branchStatePath = "\(folder)/\(Self.branchStateName)" }
        let warnings = WarningList()
        let outcome: RunOutcome
        switch execute(plan, shouldStop: shouldStop, onWarning: warnings.add) {
        case let .success(done): outcome = done
        case let .failure(failure): return .failure(failure)
        }
        if outcome.result.stoppedEarly || outcome.stop != nil { return .failure(.stopped) }
        if let problem = outcome.failure { return .failure(Failure(problem)) }
        let seconds = Double(stopwatch.nanoseconds() - started) / 1e9
        let drawn = request.outputs.frames == nil ? nil : plan.frames
        return .success(Result(hash: outcome.result.stateHash, startStep: plan.start.step, steps: outcome.result.counters.stepsTaken,
                               trail: trail.withLock { $0 }, finalSnapshot: outcome.result.finalSnapshot,
                               warnings: warnings.all, wallSeconds: seconds, cpuSeconds: threadCPUSeconds() - cpuStarted,
                               framesWritten: drawn == nil ? nil : outcome.render?.framesWritten,
                               viewport: drawn?.viewport(for: request.scene)))
    }

    /// Where a sample's frames go: `frames/` or `video.FORMAT`, with `masks/` beside.
    static func frameOutput(_ frames: SampleFrames, scene: Scene, folder: String) -> RunPlan.Frames {
        let destination: FrameDestination
        switch frames.format {
        case .png: destination = .directory("\(folder)/frames", format: .png(PNGEncoder()))
        case .mp4: destination = .video("\(folder)/video.mp4", format: .mp4)
        case .webm: destination = .video("\(folder)/video.webm", format: .webm)
        }
        let size = frames.size ?? (scene.render.imageWidth, scene.render.imageHeight)
        return RunPlan.Frames(destination: destination, width: size.width, height: size.height, masks: frames.masks ? "\(folder)/masks" : nil)
    }

    /// Sets up and runs the engine; returns once the engine and its world are gone, so that a
    /// sample's time includes taking its world down.
    private static func execute(_ plan: RunPlan, shouldStop: @escaping @Sendable () -> Bool,
                                onWarning: @escaping (String) -> Void) -> Swift.Result<RunOutcome, Failure> {
        let engine: RunEngine
        do {
            engine = try RunEngine(plan: plan, shouldStop: shouldStop, onWarning: onWarning)
        } catch {
            return .failure(.setup(error))
        }
        return .success(engine.run(shouldStop: shouldStop))
    }

    /// CPU time this thread has used, seconds (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Warnings told by the engine, kept for the done marker.
private final class WarningList: Sendable {
    private let list = Mutex<[String]>([])
    func add(_ warning: String) { list.withLock { $0.append(warning) } }
    var all: [String] { list.withLock { $0 } }
}
