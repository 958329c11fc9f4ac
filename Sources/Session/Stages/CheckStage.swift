import SceneModel
import Script

/// The check stage: the run compared with a record as it steps. After each step the record has a
/// checkpoint for, the state (full state where recorded, else its hash) must match; at the first
/// mismatch the stage halts the run and `divergence` says where.
public final class CheckStage: StepStage {
    private let checkpoints: [Checkpoint]
    private var next = 0
    private var lastMatch: Int?
    /// Checkpoints that matched so far.
    public private(set) var verified = 0
    /// Where the run parted from the record, once it has.
    public private(set) var divergence: TrailDivergence?

    public init(checkpoints: [Checkpoint]) {
        self.checkpoints = checkpoints
    }

    public var haltsRun: Bool { divergence != nil }

    public func afterStep(_ state: StepState) {
        let step = state.step
        while next < checkpoints.count, checkpoints[next].step < step { next += 1 }
        guard next < checkpoints.count, checkpoints[next].step == step else { return }
        let recorded = checkpoints[next]
        next += 1
        let (found, _) = TrailDivergence.compare(expected: [recorded], actual: [Checkpoint(state.snapshot)])
        if var found {
            found.lastMatchingStep = lastMatch
            divergence = found
        } else {
            verified += 1
            lastMatch = step
        }
    }
}
