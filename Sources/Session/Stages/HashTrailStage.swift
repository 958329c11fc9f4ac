import SceneModel

/// The hash trail (`cratedrop hash`): the state every `every` steps, and once more at the end.
final class HashTrailStage: StepStage {
    private let trail: RunPlan.HashTrail
    /// The last step of a run of fixed length: its state is told by `finish`, not twice.
    private let lastStep: Int?
    private var failed = false
    /// The step last told: a run that stops early (a refused input line) right after a told
    /// step does not tell it twice.
    private var toldStep: Int?

    init(_ trail: RunPlan.HashTrail, lastStep: Int?) {
        self.trail = trail
        self.lastStep = lastStep
    }

    var haltsRun: Bool { failed }

    func afterStep(_ state: StepState) {
        let step = state.step
        guard step % trail.every == 0, step != lastStep else { return }
        if !trail.emit(state.snapshot) { failed = true }
        toldStep = step
    }

    /// Tells the final state, unless the trail's output has failed (its emitter reports that) or
    /// it was told already.
    func finish(_ ending: RunEnding, into reports: inout StageReports) {
        if !failed, ending.final.step != toldStep { _ = trail.emit(ending.final) }
    }
}

extension HashTrailStage: PlannedStage {
    static var position: StepPipeline.Position { .hashTrail }

    static func make(_ setup: StageSetup) -> HashTrailStage? {
        setup.plan.hashTrail.map { HashTrailStage($0, lastStep: setup.lastStep) }
    }
}
