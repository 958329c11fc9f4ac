import Physics
import SceneModel

/// The synctest stage (`hash --synctest K`), after GGPO's: proves that a saved state continues
/// exactly, at every step of a run. Before each step it saves the world, steps it `depth` steps
/// ahead, noting each state, and restores the saved state; the run then goes on from the
/// restored world. Every state the run reaches afterwards (its own step, and the first `depth`-1
/// steps of the next look-ahead) must equal, bit for bit, the state the look-ahead reached
/// before the restore. At the first that differs the stage halts the run and `failure` says at
/// which step, after a restore made at which step, which body and field.
///
/// The run's own states are those of a run without the stage: a restore that is exact changes nothing.
public final class SyncTestStage: StepStage {
    /// How far ahead each look-ahead steps (K >= 1).
    public let depth: Int
    /// States the last look-ahead reached, from its first step on, with the count of the world's
    /// inputs they were stepped under and the step whose restore they check.
    private var expected: [WorldSnapshot] = []
    private var expectedInputs = -1
    private var restoredAt = 0
    /// Steps whose state was compared with a look-ahead's.
    public private(set) var statesCompared = 0
    /// Why the test failed, once it has.
    public private(set) var failure: SyncTestFailure?

    /// How a saved state is put back: `World.restore`, or (in tests) a lossy stand-in the stage
    /// must catch.
    private let restore: (World, WorldState) throws(StateError) -> Void

    public convenience init(depth: Int) {
        self.init(depth: depth) { world, state throws(StateError) in try world.restore(state) }
    }

    init(depth: Int, restore: @escaping (World, WorldState) throws(StateError) -> Void) {
        precondition(depth >= 1, "the look-ahead is at least one step")
        self.depth = depth
        self.restore = restore
    }

    public var haltsRun: Bool { failure != nil }

    public func beforeStep(_ state: StepState) -> Bool {
        let world = state.world
        let saved: WorldState
        do {
            saved = try world.saveState()
        } catch {
            failure = .cannotSave(step: world.stepCount, error)
            return false
        }
        // The look-ahead first meets the states the last one predicted (only when no input came
        // at this boundary: a gravity change or a push the last look-ahead did not know of).
        let predicted = world.inputsApplied == expectedInputs ? expected.dropFirst() : []
        var reached: [WorldSnapshot] = []
        reached.reserveCapacity(depth)
        for index in 0..<depth {
            world.step()
            let snapshot = world.snapshot()
            if index < predicted.count, !compare(predicted[predicted.startIndex + index], snapshot) { break }
            reached.append(snapshot)
        }
        do {
            try restore(world, saved)
        } catch {
            failure = .cannotRestore(step: saved.step, error)
        }
        if failure != nil { return false }
        expected = reached
        expectedInputs = world.inputsApplied
        restoredAt = saved.step
        return true
    }

    public func afterStep(_ state: StepState) {
        guard let first = expected.first else { return }
        _ = compare(first, state.snapshot)
    }

    /// Compares a state reached before a restore with the one reached after it; false (and the
    /// failure noted) when they differ.
    private func compare(_ before: WorldSnapshot, _ after: WorldSnapshot) -> Bool {
        statesCompared += 1
        if Self.sameBits(before, after) { return true }
        let detail = StateDivergence.first(expected: before.bodies.map(BodyValues.init), actual: after.bodies.map(BodyValues.init))
        if detail == nil, before.movingWalls == after.movingWalls { return true }
        failure = .differs(step: after.step, restoredAt: restoredAt, detail: detail)
        return false
    }
}

extension SyncTestStage: PlannedStage {
    static var position: StepPipeline.Position { .synctest }

    static func prepare(_ setup: StageSetup) throws(RunSetupError) {
        if setup.plan.synctest != nil { try setup.requireSavedStates(for: "--synctest") }
    }

    static func make(_ setup: StageSetup) -> Self? {
        setup.plan.synctest.map { Self(depth: $0) }
    }

    /// Whether two states are equal bit for bit (every hashed value of every body, and the moving
    /// walls): the check of every step, without the per-body arrays `StateDivergence` builds to
    /// say where two states differ.
    static func sameBits(_ a: WorldSnapshot, _ b: WorldSnapshot) -> Bool {
        guard a.bodies.count == b.bodies.count, a.movingWalls == b.movingWalls else { return false }
        for (x, y) in zip(a.bodies, b.bodies) {
            guard x.id == y.id, x.position.x.bitPattern == y.position.x.bitPattern, x.position.y.bitPattern == y.position.y.bitPattern,
                  x.angle.bitPattern == y.angle.bitPattern, x.velocity.x.bitPattern == y.velocity.x.bitPattern,
                  x.velocity.y.bitPattern == y.velocity.y.bitPattern, x.angularVelocity.bitPattern == y.angularVelocity.bitPattern
            else { return false }
        }
        return true
    }
}

/// Why a synctest failed.
public enum SyncTestFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// At `step`, the state reached after restoring the state saved at `restoredAt` differs from
    /// the one reached before (`detail`: the first body and field; nil: a moving wall differs).
    case differs(step: Int, restoredAt: Int, detail: StateDivergence?)
    /// The world's state could not be saved at `step`.
    case cannotSave(step: Int, StateError)
    /// The state saved at `step` could not be restored.
    case cannotRestore(step: Int, StateError)

    public var description: String {
        switch self {
        case let .differs(step, restoredAt, detail):
            "synctest: restoring the state saved at step \(restoredAt) is not exact: at step \(step), "
                + (detail.map { "\($0)" } ?? "a moving wall differs")
        case let .cannotSave(step, error): "synctest: cannot save the state at step \(step): \(error)"
        case let .cannotRestore(step, error): "synctest: cannot restore the state saved at step \(step): \(error)"
        }
    }
}

extension SyncTestStage {
    /// Its part (`RunOutcome.synctest`); a restore that is not exact is a divergence.
    public func finish(_ ending: RunEnding, into reports: inout StageReports) {
        reports[RunOutcome.SyncTestSummary.self] = RunOutcome.SyncTestSummary(statesCompared: statesCompared, failure: failure)
        switch failure {
        case nil: break
        case .differs: reports.add(RunProblem(.diverged, failure!))
        case .cannotSave(_, .unsupportedBackend), .cannotRestore(_, .unsupportedBackend): reports.add(RunProblem(.unavailable, failure!))
        case .cannotSave, .cannotRestore: reports.add(RunProblem(.unsupported, failure!))
        }
    }
}

extension RunOutcome {
    /// How a synctest ended.
    public struct SyncTestSummary: Sendable {
        /// States compared with a look-ahead's.
        public var statesCompared: Int
        /// Where a restore was not exact, if it was not.
        public var failure: SyncTestFailure?
    }

    /// What the synctest found, when the run had one.
    public var synctest: SyncTestSummary? { stages[SyncTestSummary.self] }
}
