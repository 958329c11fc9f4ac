import Driver
import SceneModel
import Script

/// A simulation checked against a run record as it steps: after each step the record has a
/// checkpoint for, the state (full state where recorded, else its hash) must match. At the first
/// mismatch it stops: `prepareStep()` refuses the next step and `divergence` says where.
public final class VerifyingSimulation: Simulation {
    public let inner: Simulation
    private let checkpoints: [Checkpoint]
    private var next = 0
    private var stepsTaken: Int
    private var lastMatch: Int?
    /// Checkpoints that matched so far.
    public private(set) var verified = 0
    /// Where the run parted from the record, once it has.
    public private(set) var divergence: TrailDivergence?

    public init(_ inner: Simulation, checkpoints: [Checkpoint], stepsTaken: Int = 0) {
        self.inner = inner
        self.checkpoints = checkpoints
        self.stepsTaken = stepsTaken
    }

    public func prepareStep() -> Bool { divergence == nil && inner.prepareStep() }

    public func step() {
        inner.step()
        stepsTaken += 1
        while next < checkpoints.count, checkpoints[next].step < stepsTaken { next += 1 }
        guard next < checkpoints.count, checkpoints[next].step == stepsTaken else { return }
        let recorded = checkpoints[next]
        next += 1
        let here = Checkpoint(inner.snapshot())
        let (found, _) = TrailDivergence.compare(expected: [recorded], actual: [here])
        if var found {
            found.lastMatchingStep = lastMatch
            divergence = found
        } else {
            verified += 1
            lastMatch = stepsTaken
        }
    }

    public func snapshot() -> WorldSnapshot { inner.snapshot() }
}
