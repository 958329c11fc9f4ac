import SceneModel

/// Saves the world's state every `every` steps (`--save-every STEPS DIR`) into
/// `DIR/step-NNNNNNNNN.state`, counting steps from the scene's start, so a continuation saves at
/// the same steps as the straight run. A file that cannot be written halts the run; the states
/// saved before it stay.
final class PeriodicStateStage: StepStage {
    private let plan: RunPlan.PeriodicStates
    private let writer: StateFileWriter
    /// States written so far.
    private(set) var statesSaved = 0
    /// Why the last state could not be saved, once one could not.
    private(set) var failure: SaveStateFailure?

    init(_ plan: RunPlan.PeriodicStates, writer: StateFileWriter) {
        self.plan = plan
        self.writer = writer
    }

    var haltsRun: Bool { failure != nil }

    func afterStep(_ state: StepState) {
        guard state.step % plan.every == 0 else { return }
        if let failure = writer.write(state.world, to: plan.path(atStep: state.step)) {
            self.failure = failure
        } else {
            statesSaved += 1
        }
    }
}
