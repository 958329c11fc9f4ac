import Driver
import Outputs
import Physics
import Raster
import SceneModel

/// What `--trace`, `--stats` and `--events` ask for.
public struct DataOutputSettings: Sendable, Equatable {
    /// `--trace FILE` (.csv or .jsonl).
    public var tracePath: String?
    /// The trace's format; nil: told by the extension.
    public var traceFormat: DataFormat?
    /// Trace every K steps; nil: once per frame in a run (every step where there are no frames).
    public var traceEvery: Int?
    /// `--stats FILE.jsonl`.
    public var statsPath: String?
    /// `--events FILE` (.csv or .jsonl): every step's contact events.
    public var eventsPath: String?
    /// The events' format; nil: told by the extension.
    public var eventsFormat: DataFormat?
    /// The frames' viewport, when a trace of frames also gives each row its frame's number and
    /// the body's bounding box in the frame's pixels (a sweep's frames).
    public var traceBoxes: Viewport?

    public init(tracePath: String? = nil, traceFormat: DataFormat? = nil, traceEvery: Int? = nil, statsPath: String? = nil,
                eventsPath: String? = nil, eventsFormat: DataFormat? = nil) {
        self.tracePath = tracePath
        self.traceFormat = traceFormat
        self.traceEvery = traceEvery
        self.statsPath = statsPath
        self.eventsPath = eventsPath
        self.eventsFormat = eventsFormat
    }

    public var isEmpty: Bool { tracePath == nil && statsPath == nil && eventsPath == nil }

    /// The files a table option writes, for the commands' output checks: the table, and the
    /// metadata beside a JSON Lines or .npy one (`NAME.meta.json`).
    public static func files(option: String, path: String, format: DataFormat? = nil) -> [(option: String, path: String)] {
        guard (format ?? DataFormat(path: path)) != .csv else { return [(option, path)] }
        return [(option, path), ("\(option)'s metadata", DataFile.metadataPath(for: path))]
    }
}

/// The data stage: trajectories and per-step statistics written as the run steps
/// (docs/outputs.md, "Data out"). The files are created before the first step, rows stream out
/// with flat memory, and `finish()` closes them and reports what could not be written.
public final class DataStage: StepStage {
    private let trace: TraceWriter?
    private let stats: StatsWriter?
    private let events: EventsWriter?
    public private(set) var eventsWritten = 0
    /// Steps between traced states; nil: frames are traced through `traceFrame(_:)`.
    private let traceEvery: Int?
    private let stopwatch = MonotonicStopwatch()
    private var stepStart: Int64 = 0
    public private(set) var stepsTraced = 0
    private var lastTracedStep = -1
    public private(set) var stepsMeasured = 0

    /// - Parameters:
    ///   - scene: the scene the world was built from (its name and step rate head the files).
    ///   - settings: which files to write, and how often to trace.
    ///   - tracesFrames: the run has frames and traces them when `traceEvery` is nil.
    /// - Throws: `OutputSetupError` when a file has the wrong extension or cannot be created.
    public init(scene: Scene, settings: DataOutputSettings, tracesFrames: Bool) throws(OutputSetupError) {
        let run = RunIdentity(scene: scene.name, stepRate: scene.stepRate, determinismClass: DeterminismClass.current.id)
        traceEvery = settings.traceEvery ?? (tracesFrames ? nil : 1)
        let boxes = traceEvery == nil ? settings.traceBoxes : nil
        trace = try settings.tracePath.map { path throws(OutputSetupError) in
            try TraceWriter(path: path, format: settings.traceFormat, run: run, bodyShapes: scene.bodyShapes, boxes: boxes)
        }
        stats = try settings.statsPath.map { path throws(OutputSetupError) in try StatsWriter(path: path, run: run) }
        events = try settings.eventsPath.map { path throws(OutputSetupError) in try EventsWriter(path: path, format: settings.eventsFormat, run: run) }
    }

    /// Whether the world must note its contact events (`World.recordsContactEvents`).
    public var needsContactEvents: Bool { events != nil }

    /// Whether frame snapshots should be handed to `traceFrame(_:)`.
    public var tracesFrames: Bool { trace != nil && traceEvery == nil }

    public func beforeStep(_ state: StepState) -> Bool {
        if stats != nil { stepStart = stopwatch.nanoseconds() }
        return true
    }

    public func afterStep(_ state: StepState) {
        let world = state.world
        if let stats {
            let elapsed = stopwatch.nanoseconds() - stepStart
            let contacts = world.contactCounts()
            stats.write(StepStats(step: world.stepCount, stepMicroseconds: Double(elapsed) / 1000, contactPairs: contacts.pairs,
                                  contactPoints: contacts.points, awakeBodies: world.awakeCrateCount,
                                  kineticEnergy: world.kineticEnergy, gravity: world.gravity))
            stepsMeasured += 1
        }
        if let events, !world.contactEvents.isEmpty {
            events.write(world.contactEvents)
            eventsWritten += world.contactEvents.count
        }
        if let trace, let traceEvery, world.stepCount % traceEvery == 0 {
            trace.write(state.snapshot)
            stepsTraced += 1
        }
    }

    /// Traces the state at a frame's last step (once per frame, when tracing frames; a frame
    /// that took no step adds no rows).
    public func atFrame(_ report: FrameReport, driver: FixedStepDriver) {
        let snapshot = driver.current
        guard let trace, tracesFrames, snapshot.step != lastTracedStep else { return }
        lastTracedStep = snapshot.step
        stepsTraced += 1
        trace.write(snapshot, frame: stepsTraced)
    }

    public var needsFrameSnapshots: Bool { tracesFrames }

    /// Closes the files; its part (`RunOutcome.stepsTraced`, `dataFailures`) and each write
    /// error (a full disk), naming its file, as an output failure.
    public func finish(_ ending: RunEnding, into reports: inout StageReports) {
        var failures: [FrameWriteError] = []
        do { try trace?.finish() } catch { failures.append(error) }
        do { try stats?.finish() } catch { failures.append(error) }
        do { try events?.finish() } catch { failures.append(error) }
        reports[RunOutcome.DataFiles.self] = RunOutcome.DataFiles(stepsTraced: stepsTraced, stepsMeasured: stepsMeasured, failures: failures)
        for failure in failures { reports.add(RunProblem(.inputOutput, failure)) }
    }
}

extension DataStage: PlannedStage {
    static var position: StepPipeline.Position { .data }

    static func make(_ setup: StageSetup) throws(RunSetupError) -> DataStage? {
        guard !setup.plan.data.isEmpty else { return nil }
        let stage: DataStage
        do {
            stage = try DataStage(scene: setup.scene, settings: setup.plan.data, tracesFrames: setup.plan.clock.fps != nil)
        } catch {
            throw .output(error)
        }
        if stage.needsContactEvents { setup.world.recordsContactEvents = true }
        return stage
    }
}

extension RunOutcome {
    /// What the trace, stats and events files did.
    public struct DataFiles: Sendable {
        public var stepsTraced: Int
        public var stepsMeasured: Int
        /// What they could not write (a full disk), each naming its file.
        public var failures: [FrameWriteError]
    }

    /// States traced, when `--trace` was given.
    public var stepsTraced: Int { stages[DataFiles.self]?.stepsTraced ?? 0 }
    /// Steps measured, when `--stats` was given.
    public var stepsMeasured: Int { stages[DataFiles.self]?.stepsMeasured ?? 0 }
    /// What the trace, stats and events files could not write, each naming its file.
    public var dataFailures: [FrameWriteError] { stages[DataFiles.self]?.failures ?? [] }
}
