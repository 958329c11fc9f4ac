import FileIO
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

extension PeriodicStateStage: PlannedStage {
    static var position: StepPipeline.Position { .savedStates }

    static func prepare(_ setup: StageSetup) throws(RunSetupError) {
        if setup.plan.periodicStates != nil { try setup.requireSavedStates(for: "--save-every") }
    }

    /// Makes the states' folder.
    static func make(_ setup: StageSetup) throws(RunSetupError) -> PeriodicStateStage? {
        guard let periodic = setup.plan.periodicStates else { return nil }
        do {
            try FileDescriptorIO.makeDirectory(periodic.directory)
        } catch {
            throw .statesFolder(path: periodic.directory, error)
        }
        return PeriodicStateStage(periodic, writer: setup.stateWriter)
    }

    /// Its part (`RunOutcome.statesSaved`) and a state not saved.
    func finish(_ ending: RunEnding, into reports: inout StageReports) {
        reports[RunOutcome.PeriodicStates.self] = RunOutcome.PeriodicStates(saved: statesSaved)
        if let failure { reports.add(failure.problem) }
    }
}

extension RunOutcome {
    /// What `--save-every` did.
    public struct PeriodicStates: Sendable {
        /// States written.
        public var saved: Int
    }

    /// States written by `--save-every`.
    public var statesSaved: Int { stages[PeriodicStates.self]?.saved ?? 0 }
}
