import Physics
import SceneModel
import Script

/// Applies the plan's world edits (a sweep's counterfactual) at their step boundaries, after that
/// step's input lines (`BranchStateStage` saved the world before them), through the run's inputs
/// (`RunInputs`), which write each into the record as its input line. A change the world refuses
/// ends the run with its reason.
final class WorldEditStage: StepStage {
    private var pending: ArraySlice<WorldEdit>
    private(set) var failure: CounterfactualFailure?
    private let inputs: RunInputs

    init(_ edits: [WorldEdit], inputs: RunInputs) {
        self.inputs = inputs
        pending = edits.sorted { $0.step < $1.step }[...]
    }

    func beforeStep(_ state: StepState) -> Bool {
        while let next = pending.first, next.step <= state.world.stepCount {
            pending.removeFirst()
            // An edit before the run's first step (a start past it) does not apply.
            guard next.step == state.world.stepCount else { continue }
            do {
                // The record carries it as the input line that says it, so a replay makes it too.
                try inputs.apply(next)
            } catch {
                failure = .refused(step: next.step, error)
                return false
            }
        }
        return true
    }

    var haltsRun: Bool { failure != nil }
}

extension WorldEditStage: PlannedStage {
    static var position: StepPipeline.Position { .input }

    static func make(_ setup: StageSetup) -> WorldEditStage? {
        let plan = setup.plan
        guard !plan.edits.isEmpty else { return nil }
        return WorldEditStage(plan.edits, inputs: setup.inputs)
    }

    /// A change refused is bad values.
    func finish(_ ending: RunEnding, into reports: inout StageReports) {
        if let failure { reports.add(RunProblem(.badValues, failure)) }
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

extension WorldEdit {
    /// The input line that makes the same change, for a record; nil for a position set, which no
    /// input line says (a sweep refuses a record beside one).
    var inputAction: InputAction? {
        switch change {
        case .remove: .change(.removeBody(body))
        case let .add(spec): .change(.addCrate(spec))
        case let .velocity(velocity): .body(body, .velocity(velocity))
        case .position: nil
        }
    }
}
