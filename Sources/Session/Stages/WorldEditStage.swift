import Physics
import SceneModel
import Script

/// Applies the plan's world edits (a sweep's counterfactual) at their step boundaries, after that
/// step's input lines. With a branch path, the world is first saved there and restored from what
/// was written, so the change is made to the saved state itself. A change the world refuses ends
/// the run with its reason, as does a branch state that cannot be written.
final class WorldEditStage: StepStage {
    private var pending: ArraySlice<WorldEdit>
    private let branch: (path: String, writer: StateFileWriter)?
    private let onWarning: (String) -> Void
    private(set) var failure: CounterfactualFailure?
    /// The branch state that could not be written (the folder's fault, not the sample's).
    private(set) var branchFailure: SaveStateFailure?

    init(_ edits: [WorldEdit], branch: (path: String, writer: StateFileWriter)?, onWarning: @escaping (String) -> Void) {
        pending = edits.sorted { $0.step < $1.step }[...]
        self.branch = branch
        self.onWarning = onWarning
    }

    func beforeStep(_ state: StepState) -> Bool {
        while let next = pending.first, next.step <= state.world.stepCount {
            pending.removeFirst()
            // An edit before the run's first step (a start past it) does not apply.
            guard next.step == state.world.stepCount else { continue }
            if let branch, !saveAndRestore(state.world, at: branch) { return false }
            do {
                try state.world.apply(next)
            } catch {
                failure = .refused(step: next.step, error)
                return false
            }
        }
        return true
    }

    var haltsRun: Bool { failure != nil || branchFailure != nil }

    /// Writes the branch state and goes on from it; false when it could not be written. A world
    /// that saved states do not cover (sleeping bodies, the spatial hash) goes on as it is.
    private func saveAndRestore(_ world: World, at branch: (path: String, writer: StateFileWriter)) -> Bool {
        switch branch.writer.save(world, to: branch.path) {
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
            branchFailure = failure
            return false
        }
    }
}

extension WorldEditStage: PlannedStage {
    static var position: StepPipeline.Position { .input }

    static func make(_ setup: StageSetup) -> WorldEditStage? {
        let plan = setup.plan
        guard !plan.edits.isEmpty else { return nil }
        return WorldEditStage(plan.edits, branch: plan.branchStatePath.map { ($0, setup.stateWriter) }, onWarning: setup.onWarning)
    }

    /// A change refused is bad values; a branch state not written, the folder's fault.
    func finish(_ ending: RunEnding, into reports: inout StageReports) {
        if let failure { reports.add(RunProblem(.badValues, failure)) }
        if let branchFailure { reports.add(branchFailure.problem) }
    }
}

/// Why a counterfactual ended its run.
public enum CounterfactualFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The world refused the change at `step`.
    case refused(step: Int, PhysicsError)
    /// The branch state written at `step` did not read back.
    case branchUnreadable(step: Int, SavedStateFile.FormatError)
    /// The branch state written at `step` did not restore.
    case branchDoesNotRestore(step: Int, StateError)

    public var description: String {
        switch self {
        case let .refused(step, error): "counterfactual at step \(step): \(error)"
        case let .branchUnreadable(step, error): "counterfactual at step \(step): the branch state does not read back: \(error)"
        case let .branchDoesNotRestore(step, error): "counterfactual at step \(step): the branch state does not restore: \(error)"
        }
    }
}
