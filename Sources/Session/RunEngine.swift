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
    /// Every stage of the run, in pipeline order: their hooks and reports are the run's.
    private var stages: [StepStage] { pipeline.stages }

    /// Sets the run up, so a bad input or output ends it before any step: every stage kind the
    /// plan can ask for (`RunPlan.stageKinds`) first checks its request and opens its inputs,
    /// then the start's state is restored, then the stages the plan asks for are made (their
    /// outputs created), so a refusal never truncates an output.
    /// - Parameters:
    ///   - plan: the run.
    ///   - shouldStop: ends an offline wait for gravity input (a stop request).
    ///   - onWarning: told of skipped gravity lines, a record made in another determinism class, a
    ///     live rewind that failed, and (once, from the stepping thread) the first body that
    ///     leaves the world.
    /// - Throws: `RunSetupError` naming what could not be set up.
    public convenience init(plan: RunPlan, shouldStop: @escaping () -> Bool = { false },
                            onWarning: @escaping (String) -> Void = { _ in }) throws(RunSetupError) {
        let world: World
        do {
            // A scene checked when it was read is not checked again.
            if let checked = plan.start.checkedScene { world = try World(checked: checked) } else { world = try World(scene: plan.start.scene) }
        } catch {
            throw .world(error)
        }
        try self.init(plan: plan, freshWorld: world, shouldStop: shouldStop, onWarning: onWarning)
    }

    /// Sets the run up on `freshWorld`, a world built from the plan's scene and not yet stepped
    /// or changed (`serve` shows it to pages before its first run), so it is not built twice.
    /// - Parameter freshState: `freshWorld`'s state, if its builder saved it already (`serve`
    ///   checks on it that rewinds work): the set-up's trial save and a live history's first
    ///   state take it, so the world is not saved again.
    package init(plan: RunPlan, freshWorld: World, freshState: WorldState? = nil, shouldStop: @escaping () -> Bool = { false },
                 onWarning: @escaping (String) -> Void = { _ in }) throws(RunSetupError) {
        guard freshWorld.stepCount == 0 else { throw .unsupported("a run starts from a world not yet stepped") }
        precondition(freshState.map { $0.step == 0 && $0.fingerprint == freshWorld.fingerprint } ?? true, "a fresh world's own state")
        self.plan = plan
        world = freshWorld
        let setup = StageSetup(plan: plan, world: world, savedAtStart: freshState, shouldStop: shouldStop, onWarning: onWarning)
        for kind in RunPlan.stageKinds { try kind.prepare(setup) }
        if let state = plan.start.state { try Self.restore(state, of: plan.start, into: world) }
        var stages: [(StepPipeline.Position, StepStage)] = []
        for kind in RunPlan.stageKinds {
            if let stage = try kind.make(setup) { stages.append((kind.position, stage)) }
        }
        pipeline = StepPipeline(world: world, stages: stages)
        let catchUpStages = stages.filter { [.rewind, .input, .check].contains($0.0) }
        catchUpPipeline = plan.start.catchUpTo == nil ? nil : StepPipeline(world: world, stages: catchUpStages)
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
        let stages = self.stages
        let loop = RunLoop(simulation: pipeline, configuration: configuration, clock: clock, stopwatch: stopwatch, end: plan.end,
                           capturesSnapshots: stages.contains(where: \.needsFrameSnapshots))
        // Asked for explicitly: the stepping thread gives way to the encoder as the drawing thread
        // does, now that the encoder and the writing thread have started at their own priority.
        if plan.feedsOfflineEncoder, plan.threadPriority == .yieldToVideoEncoder { RenderPipeline.lowerThisThreadsPriority() }
        var control: LiveControl?
        if case let .live(_, live) = plan.clock { control = live }
        let progress = stages.lazy.compactMap { $0 as? FrameProgress }.first
        var stop: RunOutcome.Stop?
        for stage in stages { stage.start() }
        let result = loop.run(shouldStop: {
            if shouldStop() { stop = .requested } else if control?.restartRequested == true { stop = .restart }
            return stop != nil || stages.contains(where: \.endsRunAtFrame)
        }) { report, driver in
            // A frame whose last step left the world non-finite is neither drawn nor written.
            guard pipeline.world.nonFinite == nil else { return }
            for stage in stages { stage.atFrame(report, driver: driver) }
            onFrame(report.loadWarning, progress?.framesDone(report) ?? report.frame)
        }
        // An input that gave up its wait for a stop request ended the run without a frame boundary.
        if stop == nil, shouldStop() { stop = .requested }
        var outcome = RunOutcome(result: result)
        outcome.stop = stop
        let ending = RunEnding(final: result.finalSnapshot,
                               completed: !result.stoppedEarly && !loop.driver.halted && !stages.contains(where: \.endsRunAtFrame))
        for stage in stages { stage.finish(ending, into: &outcome.stages) }
        if let nonFinite = pipeline.world.nonFinite { outcome.stages.add(RunProblem(.badValues, nonFinite)) }
        return outcome
    }
}
