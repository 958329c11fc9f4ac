import Physics
import SceneModel
import Script

/// A kind of stage as a plan asks for it: where it runs in the pipeline and how it is set up.
/// `RunPlan.stageKinds` lists them all; the engine sets up a run from that list alone.
protocol PlannedStage: StepStage {
    /// Where the stage runs in the pipeline.
    static var position: StepPipeline.Position { get }
    /// Before any stage is made: refuses what the plan asks of this stage that the run cannot
    /// do, and opens its inputs, so a refusal comes before any output is created.
    static func prepare(_ setup: StageSetup) throws(RunSetupError)
    /// The stage the plan asks for, set up (its outputs created), or nil when it asks for none.
    static func make(_ setup: StageSetup) throws(RunSetupError) -> Self?
}

extension PlannedStage {
    static func prepare(_ setup: StageSetup) throws(RunSetupError) {}
}

/// What the stages of one run are set up from: the plan, the world, and what they share (the
/// run's inputs and record, `RunInputs`; the gravity input opened first).
final class StageSetup {
    let plan: RunPlan
    let world: World
    /// A stop request (a signal): ends a wait for input or a rewind's steps.
    let shouldStop: () -> Bool
    let onWarning: (String) -> Void
    /// Writes saved states naming the run's scene.
    let stateWriter: StateFileWriter
    /// Every input the run applies, and its record once `RecordStage` has created it.
    let inputs: RunInputs
    /// The gravity input, once `GravityInput` has opened it.
    var gravityEvents: GravityEvents?

    /// - Parameter savedAtStart: `world`'s state as it is now, if its builder already saved it:
    ///   the trial save takes it rather than saving again.
    init(plan: RunPlan, world: World, savedAtStart: WorldState? = nil, shouldStop: @escaping () -> Bool,
         onWarning: @escaping (String) -> Void) {
        self.plan = plan
        self.savedAtStart = savedAtStart
        self.world = world
        self.shouldStop = shouldStop
        self.onWarning = onWarning
        inputs = RunInputs(world: world)
        stateWriter = StateFileWriter(sceneFile: plan.start.sceneFile, sceneText: plan.start.sceneText)
    }

    var scene: Scene { plan.start.scene }

    /// The step the run ends at, when its length is fixed.
    var lastStep: Int? { plan.end.stepLimit(atRate: scene.stepRate).map { plan.start.outputStep + $0 } }

    private let savedAtStart: WorldState?

    /// Whether the world can be saved as it was set up (before a start state is restored), tried
    /// once for every stage that asks (a save of a large world costs), and the state it gave.
    lazy var trialSave: Result<WorldState, StateError> = savedAtStart.map { .success($0) }
        ?? Result { () throws(StateError) in try world.saveState() }

    /// Refuses `option` on a library without saved states (69), or for a world saved states do
    /// not cover (64, e.g. sleeping bodies): now, with a trial save, not at a long run's end.
    func requireSavedStates(for option: String) throws(RunSetupError) {
        guard World.canSaveState else { throw .state(.unsupportedBackend) }
        if case let .failure(error) = trialSave { throw .unsupported("\(option): \(error)") }
    }
}
