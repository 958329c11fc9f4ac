#if canImport(Glibc)
import Glibc
#endif
import Driver
import FileIO
import Outputs
import Physics
import Raster
import SceneModel
import Script

/// Carries out a `RunPlan`: builds the world, opens the inputs and outputs the plan names, and
/// runs the one loop (the fixed-step driver on the plan's clock) through the one step pipeline.
/// Every command is this engine with another plan: `run` (frames, summary), `hash` (hash trail),
/// `replay` (a record, checked), `serve` (the live clock and control).
///
/// Owns the world and so Chipmunk's state: not `Sendable`; use it on one thread.
public final class RunEngine {
    public let plan: RunPlan
    /// The world the run steps.
    public let world: World
    private let pipeline: StepPipeline
    /// Steps the world to `RunStart.catchUpTo` before the run proper: inputs and check only.
    private let catchUpPipeline: StepPipeline?
    private let gravity: GravityInput?
    private let edits: WorldEditStage?
    private let record: RecordStage?
    private let check: CheckStage?
    private let synctest: SyncTestStage?
    private let periodicStates: PeriodicStateStage?
    private let stateWriter: StateFileWriter
    private let data: DataStage?
    private let hashTrail: HashTrailStage?
    private let leftWorld: LeftWorldStage?
    private let history: LiveHistory?
    private let frames: FrameOutput
    private let onWarning: (String) -> Void

    /// Sets the run up, so a bad input or output ends it before any step. Inputs are opened
    /// before any output is created, and the frame output before the data files and the record,
    /// so a refused output never truncates another.
    /// - Parameters:
    ///   - plan: the run.
    ///   - shouldStop: ends an offline wait for gravity input (a stop request).
    ///   - onWarning: told of skipped gravity lines, a record made in another determinism class, a
    ///     live rewind that failed, and (once, from the stepping thread) the first body that
    ///     leaves the world.
    /// - Throws: `RunSetupError` naming what could not be set up.
    public init(plan: RunPlan, shouldStop: @escaping () -> Bool = { false },
                onWarning: @escaping (String) -> Void = { _ in }) throws(RunSetupError) {
        self.plan = plan
        self.onWarning = onWarning
        let scene = plan.start.scene
        do {
            world = try World(scene: scene)
        } catch {
            throw .world(error)
        }
        // Refused before any step: a run that cannot save its state at the end is not started.
        if plan.saveStatePath != nil || plan.synctest != nil || plan.periodicStates != nil || plan.rewind != nil, !World.canSaveState {
            throw .state(.unsupportedBackend)
        }
        try Self.checkKeyframes(plan, world: world)
        if plan.rewind != nil || plan.saveStatePath != nil || plan.periodicStates != nil || plan.synctest != nil {
            // A trial save: a world saved states do not cover (sleeping bodies, the spatial hash)
            // is refused now, before any step or output, as keyframes are, not at a long run's end.
            do {
                _ = try world.saveState()
            } catch {
                if plan.rewind != nil { throw .state(error) }
                let asked = plan.saveStatePath != nil ? "--save-state" : plan.periodicStates != nil ? "--save-every" : "--synctest"
                throw .unsupported("\(asked): \(error)")
            }
        }
        if let state = plan.start.state {
            // A record names its steps from 0: it starts from a scene, not from the middle of a run.
            if plan.recordPath != nil {
                throw .unsupported("a run record starts from a scene: record the run that made the state, or save states with --save-state")
            }
            try Self.restore(state, of: plan.start, into: world)
        }
        let events = try Self.openGravity(plan, onWarning: onWarning)
        do {
            frames = try FrameOutput(plan: plan, world: world, onWarning: onWarning)
            data = plan.data.isEmpty ? nil : try DataStage(scene: scene, settings: plan.data, tracesFrames: plan.clock.fps != nil)
            if data?.needsContactEvents == true { world.recordsContactEvents = true }
        } catch {
            throw .output(error)
        }
        var recorder: RunRecorder?
        if let path = plan.recordPath {
            do {
                var header = RunRecord.Header.thisProcess(sceneFile: plan.start.sceneFile)
                header.keyframeEvery = plan.keyframeEvery
                recorder = try RunRecorder(path: path, header: header, sceneText: plan.start.sceneText,
                                           schedule: TrailSchedule(bodies: world.crates.count, stepRate: scene.stepRate))
            } catch {
                throw .recordNotCreated(error)
            }
        }
        gravity = events.map { events in
            GravityInput(events: events, waitsForInput: !plan.clock.isRealTime, policy: plan.gravity?.badLines ?? .stop,
                         recorder: recorder, startStep: plan.start.step,
                         lastStep: plan.end.stepLimit(atRate: scene.stepRate).map { plan.start.outputStep + $0 },
                         shouldStop: shouldStop) { error in onWarning("skipped \(error)") }
        }
        record = recorder.map(RecordStage.init)
        check = plan.checkpoints.map { CheckStage(checkpoints: $0, keyframes: World.canSaveState ? plan.keyframeChecks : []) }
        synctest = plan.synctest.map(SyncTestStage.init)
        stateWriter = StateFileWriter(sceneFile: plan.start.sceneFile, sceneText: plan.start.sceneText)
        edits = plan.edits.isEmpty ? nil
            : WorldEditStage(plan.edits, branch: plan.branchStatePath.map { [stateWriter] in ($0, stateWriter) }, onWarning: onWarning)
        if let periodic = plan.periodicStates {
            do {
                try FileDescriptorIO.makeDirectory(periodic.directory)
            } catch {
                throw .statesFolder(path: periodic.directory, error)
            }
        }
        periodicStates = plan.periodicStates.map { [stateWriter] in PeriodicStateStage($0, writer: stateWriter) }
        let startStep = plan.start.outputStep
        hashTrail = plan.hashTrail.map { HashTrailStage($0, lastStep: plan.end.stepLimit(atRate: scene.stepRate).map { startStep + $0 }) }
        leftWorld = plan.watchesBodiesLeaving ? LeftWorldStage(worldSize: scene.worldSize, stepRate: scene.stepRate,
                                                                   bodyShapes: world.bodyShapes, onWarning: onWarning) : nil
        if let settings = plan.rewind {
            guard case let .live(_, control) = plan.clock else { throw .unsupported("only a live run keeps a history to rewind") }
            do {
                history = try LiveHistory(world: world, control: control, recorder: recorder, stepRate: scene.stepRate, settings: settings,
                                          onWarning: onWarning)
            } catch {
                throw .state(error)
            }
        } else {
            history = nil
        }
        var stages: [(StepPipeline.Position, StepStage)] = []
        // First of the inputs: a rewound run that steps again branches before a tilt is recorded.
        if let history { stages.append((.input, history)) }
        if let gravity { stages.append((.input, gravity)) }
        if let edits { stages.append((.input, edits)) }
        if let synctest { stages.append((.synctest, synctest)) }
        if let record { stages.append((.record, record)) }
        if let check { stages.append((.check, check)) }
        if let leftWorld { stages.append((.watch, leftWorld)) }
        if let data { stages.append((.data, data)) }
        if let hashTrail { stages.append((.hashTrail, hashTrail)) }
        if let periodicStates { stages.append((.savedStates, periodicStates)) }
        pipeline = StepPipeline(world: world, stages: stages)
        let catchUpStages = stages.filter { [.input, .check].contains($0.0) }
        catchUpPipeline = plan.start.catchUpTo == nil ? nil : StepPipeline(world: world, stages: catchUpStages)
    }

    /// Keyframes (`RunPlan.keyframeEvery`) are refused before any step and any output unless the
    /// run writes a record and this world can be saved: 69 on Debian's library, as `--save-state`.
    private static func checkKeyframes(_ plan: RunPlan, world: World) throws(RunSetupError) {
        guard let every = plan.keyframeEvery else { return }
        guard every >= 1 else { throw .unsupported("keyframes are at least 1 step apart, got \(every)") }
        guard plan.recordPath != nil else { throw .unsupported("keyframes go into a run record: give --record FILE") }
        guard World.canSaveState else { throw .state(.unsupportedBackend) }
        do {
            // A trial save: a world this format does not cover (sleeping bodies, the spatial
            // hash) is refused now rather than at the first keyframe.
            _ = try world.saveState()
        } catch {
            throw .unsupported("keyframes: \(error)")
        }
    }

    /// Puts the start's saved state into `world`. A keyframe that does not restore, or whose
    /// bodies do not hash to the checkpoint written beside it, is bad data naming its line.
    private static func restore(_ state: WorldState, of start: RunStart, into world: World) throws(RunSetupError) {
        do {
            try world.restore(state)
        } catch {
            guard let origin = start.stateOrigin, error != .unsupportedBackend else { throw .state(error) }
            throw .state(.malformed("\(origin): \(error)"))
        }
        if let expected = start.stateHash, let origin = start.stateOrigin {
            let found = StateHash(world.snapshot())
            if found != expected {
                throw .state(.malformed("\(origin): its bodies hash to \(found), not to the hash \(expected) written beside it: "
                    + "the record contradicts itself"))
            }
        }
    }

    /// The plan's gravity input, opened and reading; a record replayed is its own gravity input.
    private static func openGravity(_ plan: RunPlan, onWarning: (String) -> Void) throws(RunSetupError) -> GravityEvents? {
        let scene = plan.start.scene
        let source = plan.gravity?.source ?? plan.start.record.map { .stream(path: $0.path) }
        switch source {
        case nil:
            return nil
        case let .live(control):
            return control
        case let .stream(path, axes):
            let input: GravityStream.Source
            do {
                input = try GravityStream.open(path: path)
            } catch {
                throw .gravityUnreadable(error)
            }
            if path != "-", let warning = RunRecord.header(atPath: path)?.crossClassWarning { onWarning("\(path): \(warning)") }
            let parser = GravityLineParser(source: path == "-" ? "stdin" : path, stepRate: scene.stepRate,
                                           gravityMagnitude: scene.gravity.length, axes: axes)
            return GravityStream(source: input, parser: parser)
        }
    }

    /// Steps the world to `RunStart.catchUpTo` through the catch-up pipeline, on a virtual clock
    /// at the step rate: the same loop as any run, with no outputs. A stop request, a failed
    /// input or a check that parts ends it early, and the run proper then takes no step.
    private func stepToOutputStart(shouldStop: () -> Bool) {
        guard let catchUpPipeline, let target = plan.start.catchUpTo, target > world.stepCount else { return }
        let stepRate = plan.start.scene.stepRate
        let loop = RunLoop(simulation: catchUpPipeline, configuration: DriverConfiguration(stepRate: stepRate, fps: stepRate, guardEnabled: false),
                           clock: VirtualFrameClock(fps: stepRate), stopwatch: MonotonicStopwatch(), end: .steps(target - world.stepCount),
                           capturesSnapshots: false)
        _ = loop.run(shouldStop: shouldStop)
    }

    /// Runs to the plan's end, or to the first frame boundary after `shouldStop` says so, a live
    /// restart is asked for, an input or check halts the run, or the render stage fails. Then
    /// finishes every output (the frames in flight, the record's end line, the data files, the
    /// hash trail's last line) whatever ended it.
    /// - Parameters:
    ///   - shouldStop: checked at every frame boundary (a signal, for `cratedrop`).
    ///   - onFrame: after each frame, on this thread: the frame's load warning, if any, and the
    ///     frames done so far.
    public func run(shouldStop: @escaping () -> Bool,
                    onFrame: (_ loadWarning: LoadWarning?, _ framesDone: Int) -> Void = { _, _ in }) -> RunOutcome {
        stepToOutputStart(shouldStop: shouldStop)
        let scene = plan.start.scene
        var configuration = DriverConfiguration(stepRate: scene.stepRate, fps: plan.clock.fps ?? scene.stepRate,
                                                guardEnabled: plan.clock.isRealTime)
        let stopwatch = MonotonicStopwatch()
        let clock: FrameClock
        switch plan.clock {
        case let .virtual(fps):
            clock = VirtualFrameClock(fps: fps)
        case .everyStep:
            clock = VirtualFrameClock(fps: scene.stepRate)
        case let .wall(fps, guardCaps):
            configuration.maxStepsPerFrame = guardCaps.maxStepsPerFrame
            configuration.maxDebtSteps = guardCaps.maxStepsPerFrame
            if let budget = guardCaps.budgetNanoseconds { configuration.budgetNanoseconds = budget }
            clock = WallFrameClock(fps: fps, stopwatch: stopwatch)
        case let .live(fps, control):
            configuration.maxDebtSteps = configuration.maxStepsPerFrame
            clock = LiveFrameClock(fps: fps, stepRate: scene.stepRate, control: control, stopwatch: stopwatch)
        }
        let loop = RunLoop(simulation: pipeline, configuration: configuration, clock: clock, stopwatch: stopwatch, end: plan.end,
                           capturesSnapshots: frames.needsSnapshots || data?.tracesFrames == true)
        // Asked for explicitly: the stepping thread gives way to the encoder as the drawing thread
        // does, now that the encoder and the writing thread have started at their own priority.
        if plan.feedsOfflineEncoder, plan.threadPriority == .yieldToVideoEncoder { RenderPipeline.lowerThisThreadsPriority() }
        var control: LiveControl?
        if case let .live(_, live) = plan.clock { control = live }
        let frames = self.frames, data = self.data, record = self.record, history = self.history, onRewindFailure = self.onWarning
        var stop: RunOutcome.Stop?
        frames.start()
        let result = loop.run(shouldStop: {
            if shouldStop() { stop = .requested } else if control?.restartRequested == true { stop = .restart }
            // A live run flushes its record every frame, so a write failure shows at once: the
            // run ends there rather than going on with a record that is already lost.
            return stop != nil || frames.failure != nil || (control != nil && record?.recorder.hasFailed == true)
        }) { report, driver in
            // A rewind asked for applies here, between steps, so the frame shows the world it
            // went back to (paused or not).
            if let history, let target = control?.takeRewind() {
                do {
                    // Steps back to the target check for a stop request too: Ctrl-C ends a long rewind.
                    try history.rewind(to: target, shouldStop: shouldStop)
                    driver.restartInterpolation()
                } catch {
                    onRewindFailure("rewind to step \(target): \(error)")
                }
            }
            data?.traceFrame(driver.current)
            frames.frame(report, driver: driver)
            if control != nil { record?.recorder.flush() }
            onFrame(report.loadWarning, frames.framesDone(report))
        }
        // An input that gave up its wait for a stop request ended the run without a frame boundary.
        if stop == nil, shouldStop() { stop = .requested }
        var outcome = RunOutcome(result: result)
        outcome.stop = stop
        let completed = !result.stoppedEarly && !loop.driver.halted && frames.failure == nil
        (outcome.render, outcome.presentedIntervals) = frames.finish(completed: completed)
        do {
            try record?.finish(result.finalSnapshot)
        } catch {
            outcome.recordFailure = error
        }
        if let data {
            outcome.dataFailures = data.finish()
            outcome.stepsTraced = data.stepsTraced
            outcome.stepsMeasured = data.stepsMeasured
        }
        outcome.gravity = gravity.map {
            RunOutcome.GravitySummary(source: $0.source, changesApplied: $0.changesApplied, linesSkipped: $0.linesSkipped,
                                      failure: $0.failure, readError: $0.readError)
        }
        outcome.check = check.map { RunOutcome.CheckSummary(verified: $0.verified, divergence: $0.divergence) }
        outcome.synctest = synctest.map { RunOutcome.SyncTestSummary(statesCompared: $0.statesCompared, failure: $0.failure) }
        outcome.editFailure = edits?.failure
        outcome.statesSaved = periodicStates?.statesSaved ?? 0
        outcome.saveStateFailure = periodicStates?.failure ?? edits?.branchFailure
        // The state at the end is saved also after a periodic save failed: it may be another disk.
        if let path = plan.saveStatePath, let failure = stateWriter.write(world, to: path), outcome.saveStateFailure == nil {
            outcome.saveStateFailure = failure
        }
        hashTrail?.finish(result.finalSnapshot)
        return outcome
    }
}
