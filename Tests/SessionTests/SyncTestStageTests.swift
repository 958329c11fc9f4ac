import Physics
import SceneModel
@testable import Session
import Synchronization
import TestSupport
import Testing

/// The synctest stage: an exact restore passes unseen (the run's hashes are a plain run's), a
/// restore that is off by one bit in one value is caught at the next step, naming the step of the
/// restore and the body and field; Debian's library refuses it before any step.
@Suite struct SyncTestStageTests {
    final class Trail: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    /// `hash`'s plan of `scene` for `steps` steps, its trail collected.
    static func plan(_ scene: String, steps: Int, synctest: Int?, lines: Trail) throws -> RunPlan {
        var plan = RunPlan(start: .scene(try Repository.scene(scene), file: "Scenes/\(scene).json", text: []), length: .steps(steps), clock: .everyStep)
        plan.hashTrail = RunPlan.HashTrail(every: 10) { snapshot in
            lines.lines.withLock { $0.append("\(snapshot.step) \(StateHash(snapshot))") }
            return true
        }
        plan.synctest = synctest
        return plan
    }

    @Test(arguments: [("pile-100", 1), ("tumbler", 4)])
    func anExactRestoreChangesNothingAndEveryStepIsCompared(scene: String, depth: Int) throws {
        let plain = Trail(), tested = Trail()
        _ = try RunEngine(plan: Self.plan(scene, steps: 120, synctest: nil, lines: plain)).run(shouldStop: { false })
        guard World.canSaveState else {
            #expect(throws: RunSetupError.self) { try RunEngine(plan: Self.plan(scene, steps: 120, synctest: depth, lines: tested)) }
            return
        }
        let outcome = try RunEngine(plan: Self.plan(scene, steps: 120, synctest: depth, lines: tested)).run(shouldStop: { false })
        #expect(outcome.synctest?.failure == nil)
        // Each step's own state, and the first depth-1 states of every look-ahead but the first.
        #expect(outcome.synctest?.statesCompared == 120 + 119 * (depth - 1))
        #expect(tested.all == plain.all && plain.all.count == 12)
        #expect(outcome.result.counters.stepsTaken == 120)
    }

    /// A restore that puts body 0's x back one unit in the last place off, once, at step 50.
    @Test(.needsSavedStates(World.canSaveState)) func aRestoreOffByOneBitIsCaughtAtTheNextStep() throws {
        let world = try World(scene: Repository.scene("pile-100"))
        let stage = SyncTestStage(depth: 2) { world, state throws(StateError) in
            var state = state
            // The physics part begins with its layout identifier (u64), the body count (u32) and
            // body 0's x (f64, little-endian).
            if state.step == 50 { state.physics[12] ^= 1 }
            try world.restore(state)
        }
        let pipeline = StepPipeline(world: world, stages: [(.synctest, stage)])
        while pipeline.prepareStep() { pipeline.step() }
        guard case let .differs(step, restoredAt, detail) = stage.failure else {
            Issue.record("no failure: \(String(describing: stage.failure))")
            return
        }
        #expect(step == 51 && restoredAt == 50)
        guard case let .value(_, field, expected, actual) = detail?.kind else {
            Issue.record("no field named: \(String(describing: detail))")
            return
        }
        #expect(["x", "vx"].contains(field) && expected != actual)
        #expect(world.stepCount == 51)
        #expect(stage.failure?.description.hasPrefix("synctest: restoring the state saved at step 50 is not exact: at step 51, body ") == true)
    }
}
