import Driver
import Physics
import SceneModel

/// One stage of a run: an input applied at the step boundary, or an output or check that sees
/// the state after each step or frame. A stage owns its lifecycle: it is set up by its factory
/// from the plan (`RunPlan.stages`), starts with the run, sees each step and frame, and at the
/// end closes what it opened and reports its typed part and its problems. A stage is present in
/// a run only if the plan asks for it.
///
/// Stages run in the pipeline's fixed order; each sees the same `StepState`, so a state copied
/// out of the world for one stage (a checkpoint) is not copied again for the next (a trace row).
public protocol StepStage: AnyObject {
    /// As the run starts, after every stage was set up and before the first step.
    func start()
    /// Before the next step: applies what is due at it. Returns false to end the run (the
    /// input failed, or a stop was requested while it waited).
    func beforeStep(_ state: StepState) -> Bool
    /// After a step: records, checks or writes the new state.
    func afterStep(_ state: StepState)
    /// After a frame's steps (a frame drawn, a rewind applied, a record flushed).
    func atFrame(_ report: FrameReport, driver: FixedStepDriver)
    /// Whether the stage has ended the run (a check parted, an output failed): no step follows.
    var haltsRun: Bool { get }
    /// Whether the run ends at this frame boundary: what the stage writes each frame has failed.
    var endsRunAtFrame: Bool { get }
    /// Whether the stage needs the states either side of each frame's last step.
    var needsFrameSnapshots: Bool { get }
    /// Once, after the last step, whatever ended the run: closes what the stage opened and adds
    /// its part of the report and its problems to `reports`.
    func finish(_ ending: RunEnding, into reports: inout StageReports)
}

extension StepStage {
    public func start() {}
    public func beforeStep(_ state: StepState) -> Bool { true }
    public func afterStep(_ state: StepState) {}
    public func atFrame(_ report: FrameReport, driver: FixedStepDriver) {}
    public var haltsRun: Bool { false }
    public var endsRunAtFrame: Bool { false }
    public var needsFrameSnapshots: Bool { false }
    public func finish(_ ending: RunEnding, into reports: inout StageReports) {}
}

/// The world as the stages see it at a step boundary, with the state copied out at most once per step.
public final class StepState {
    public let world: World
    private var cached: WorldSnapshot?

    init(world: World) {
        self.world = world
    }

    /// Steps taken so far.
    public var step: Int { world.stepCount }

    /// The world's state now (copied out once per step, then shared).
    public var snapshot: WorldSnapshot {
        if let cached, cached.step == world.stepCount { return cached }
        let snapshot = world.snapshot()
        cached = snapshot
        return snapshot
    }
}
