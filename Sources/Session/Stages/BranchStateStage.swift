import Physics
import SceneModel
import Script

/// A counterfactual's branch (`RunPlan.branchStatePath`): at the step of each change, before
/// that step's input lines (which a run continued from the file applies, as it does after any
/// saved state), the world is saved to the branch file and restored from what was written, so
/// the change (`WorldEditStage`, after the inputs) is made to the saved state itself. A world
/// saved states do not cover goes on as it is, with a warning; a file that cannot be written
/// ends the run (the folder's fault, not the sample's).
final class BranchStateStage: StepStage {
    private var pending: ArraySlice<Int>
    private let path: String
    private let writer: StateFileWriter
    private let onWarning: (String) -> Void
    private(set) var failure: CounterfactualFailure?
    private(set) var writeFailure: SaveStateFailure?

    init(steps: [Int], path: String, writer: StateFileWriter, onWarning: @escaping (String) -> Void) {
        pending = steps.sorted()[...]
        self.path = path
        self.writer = writer
        self.onWarning = onWarning
    }

    var haltsRun: Bool { failure != nil || writeFailure != nil }

    func beforeStep(_ state: StepState) -> Bool {
        let world = state.world
        var due = false
        while let next = pending.first, next <= world.stepCount {
            pending.removeFirst()
            // A change before the run's first step (a start past it) makes no branch.
            if next == world.stepCount { due = true }
        }
        return due ? saveAndRestore(world) : true
    }

    /// Writes the branch state and goes on from it; false when it could not be written or read back.
    private func saveAndRestore(_ world: World) -> Bool {
        switch writer.save(world, to: path) {
        case let .success(bytes):
            let saved: SavedStateFile
            do {
                saved = try SavedStateFile.parse(bytes)
            } catch {
                failure = .branchUnreadable(step: world.stepCount, error)
                return false
            }
            do {
                try world.restore(saved.state)
            } catch {
                failure = .branchDoesNotRestore(step: world.stepCount, error)
                return false
            }
            return true
        case let .failure(.cannotSave(_, error)):
            onWarning("counterfactual at step \(world.stepCount): no branch state (\(error)); the change was made to the running world")
            return true
        case let .failure(failure):
            writeFailure = failure
            return false
        }
    }
}

extension BranchStateStage: PlannedStage {
    /// Before the inputs: the file holds the world as a saved state does, before the step's lines.
    static var position: StepPipeline.Position { .rewind }

    static func make(_ setup: StageSetup) -> BranchStateStage? {
        let plan = setup.plan
        guard let path = plan.branchStatePath, !plan.edits.isEmpty else { return nil }
        return BranchStateStage(steps: plan.edits.map(\.step), path: path, writer: setup.stateWriter, onWarning: setup.onWarning)
    }

    /// A branch state that does not read back ends the run as a change refused does; one not
    /// written is the folder's fault.
    func finish(_ ending: RunEnding, into reports: inout StageReports) {
        if let failure { reports.add(RunProblem(.badValues, failure)) }
        if let writeFailure { reports.add(writeFailure.problem) }
    }
}
