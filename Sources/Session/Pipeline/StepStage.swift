import Physics
import SceneModel

/// One stage of the step pipeline: an input applied at the step boundary, or an output or check
/// that sees the state after each step. A stage is present in a run only if the plan asks for it.
///
/// Stages run in the pipeline's fixed order; each sees the same `StepState`, so a state copied
/// out of the world for one stage (a checkpoint) is not copied again for the next (a trace row).
public protocol StepStage: AnyObject {
    /// Before the next step: applies what is due at it. Returns false to end the run (the
    /// input failed, or a stop was requested while it waited).
    func beforeStep(_ state: StepState) -> Bool
    /// After a step: records, checks or writes the new state.
    func afterStep(_ state: StepState)
    /// Whether the stage has ended the run (a check parted, an output failed).
    var haltsRun: Bool { get }
}

extension StepStage {
    public func beforeStep(_ state: StepState) -> Bool { true }
    public func afterStep(_ state: StepState) {}
    public var haltsRun: Bool { false }
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
