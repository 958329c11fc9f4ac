import Physics
import SceneModel

/// Applies the plan's world edits (a sweep's counterfactual) at their step boundaries, after that
/// step's input lines. A change the world refuses ends the run with its reason.
final class WorldEditStage: StepStage {
    private var pending: ArraySlice<WorldEdit>
    private(set) var failure: String?

    init(_ edits: [WorldEdit]) {
        pending = edits.sorted { $0.step < $1.step }[...]
    }

    func beforeStep(_ state: StepState) -> Bool {
        while let next = pending.first, next.step <= state.world.stepCount {
            pending.removeFirst()
            // An edit before the run's first step (a start past it) does not apply.
            guard next.step == state.world.stepCount else { continue }
            do {
                try state.world.apply(next)
            } catch {
                failure = "counterfactual at step \(next.step): \(error)"
                return false
            }
        }
        return true
    }

    var haltsRun: Bool { failure != nil }
}
