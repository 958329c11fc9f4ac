import Physics
import SceneModel
import Script

/// The check stage: the run compared with a record as it steps. After each step the record has a
/// checkpoint for, the state (full state where recorded, else its hash) must match, and after each
/// step it has a keyframe for, a save of the world must be the keyframe's state byte for byte; at
/// the first mismatch the stage halts the run and `divergence` says where.
public final class CheckStage: StepStage {
    private let checkpoints: [Checkpoint]
    private let keyframes: [KeyframeDigest]
    private var next = 0
    private var nextKeyframe = 0
    private var lastMatch: Int?
    /// Checkpoints that matched so far.
    public private(set) var verified = 0
    /// Where the run parted from the record, once it has.
    public private(set) var divergence: TrailDivergence?
    /// What parts from the record, in the message (`the run`, `FILE: the replay`).
    private let subject: String

    /// - Parameters:
    ///   - checkpoints: the record's checkpoints, in step order.
    ///   - keyframes: its keyframes' digests, in step order (none on a library without saved states).
    ///   - subject: what parts from the record, in the message.
    public init(checkpoints: [Checkpoint], keyframes: [KeyframeDigest] = [], subject: String = "the run") {
        self.checkpoints = checkpoints
        self.keyframes = keyframes
        self.subject = subject
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
            return
        }
        while nextKeyframe < keyframes.count, keyframes[nextKeyframe].step < step { nextKeyframe += 1 }
        // A world that cannot be saved here (it could when the record was made) fails the check too.
        if nextKeyframe < keyframes.count, keyframes[nextKeyframe].step == step,
           (try? state.world.saveState()).map(KeyframeDigest.digest(of:)) != keyframes[nextKeyframe].digest {
            divergence = TrailDivergence(lastMatchingStep: lastMatch, step: step, expectedHash: recorded.hash, actualHash: recorded.hash,
                                         detail: StateDivergence(kind: .keyframe(line: keyframes[nextKeyframe].line)))
            return
        }
        verified += 1
        lastMatch = step
    }
}

extension CheckStage: PlannedStage {
    static var position: StepPipeline.Position { .check }

    static func make(_ setup: StageSetup) -> CheckStage? {
        let plan = setup.plan
        return plan.checkpoints.map {
            CheckStage(checkpoints: $0, keyframes: World.canSaveState ? plan.keyframeChecks : [], subject: plan.checkedRun)
        }
    }

    /// Its part (`RunOutcome.check`); a divergence is told as parting from the record.
    public func finish(_ ending: RunEnding, into reports: inout StageReports) {
        reports[RunOutcome.CheckSummary.self] = RunOutcome.CheckSummary(verified: verified, divergence: divergence)
        if let divergence { reports.add(RunProblem(.diverged, divergence, message: "\(subject) parts from the record: \(divergence)")) }
    }
}

extension RunOutcome {
    /// How a check against a record ended.
    public struct CheckSummary: Sendable {
        /// Checkpoints that matched.
        public var verified: Int
        /// Where the run parted from the record, if it did.
        public var divergence: TrailDivergence?
    }

    /// What the check against a record found, when the run had one.
    public var check: CheckSummary? { stages[CheckSummary.self] }
}
