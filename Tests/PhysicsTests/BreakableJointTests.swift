import Physics
import SceneFile
import SceneModel
import TestSupport
import Testing

/// Breakable joints (issue 44): a joint whose impulse in a step passes its threshold is removed at
/// that step's end, in ascending joint id, logged as a removal that broke, and reported.
@Suite struct BreakableJointTests {
    /// The bridge's joints with a threshold, or none.
    static func bridge(breakImpulse: Double?) throws -> World {
        var scene = try Repository.scene("breaking-bridge")
        for index in scene.joints.indices { scene.joints[index].settings.breakImpulse = breakImpulse }
        return try World(scene: scene)
    }

    /// The joint breaks at the first step whose impulse, in the same world without thresholds,
    /// passes it; no joint breaks before; the break is reported with its bodies and impulse.
    @Test func aJointBreaksAtTheStepItsImpulsePassesItsThreshold() throws {
        let threshold = 2500.0
        let unbroken = try Self.bridge(breakImpulse: nil)
        var first: (step: Int, joint: JointID, impulse: Double)?
        for _ in 0..<300 where first == nil {
            unbroken.step()
            if let joint = unbroken.joints.first(where: { abs($0.impulse) > threshold }) {
                first = (unbroken.stepCount, joint.id!, joint.impulse)
            }
        }
        let expected = try #require(first)
        let breaking = try Self.bridge(breakImpulse: threshold)
        var breaks: [JointBreak] = []
        while breaking.stepCount < expected.step {
            breaking.step()
            breaks += breaking.jointBreaks
        }
        #expect(breaks.count >= 1 && breaks.first?.step == expected.step && breaks.first?.joint == expected.joint, "\(breaks)")
        #expect(breaks.first.map { $0.impulse == expected.impulse } == true)
        #expect(breaking.joints.count == 13 - breaks.count && breaking.joints.allSatisfy { !breaks.map(\.joint).contains($0.id!) })
        #expect(breaking.makeup.map(\.broke) == breaks.map { _ in true } && breaking.makeup.map(\.step) == breaks.map(\.step))
        // Low thresholds break several joints in one step: reported and removed in ascending joint id.
        let weak = try Self.bridge(breakImpulse: 20)
        while weak.jointBreaks.isEmpty { weak.step() }
        #expect(weak.jointBreaks.count > 1 && weak.jointBreaks.map(\.joint) == weak.jointBreaks.map(\.joint).sorted())
    }

    /// A state saved just before, at and after a break continues exactly; and the log's bytes keep
    /// the removal's cause.
    @Test(.needsSavedStates(World.canSaveState), arguments: [91, 92, 93, 200])
    func aStateAroundABreakContinuesExactly(at step: Int) throws {
        let scene = try Repository.scene("breaking-bridge")
        let world = try World(scene: scene)
        for _ in 0..<step { world.step() }
        let state = try WorldState(bytes: world.saveState().bytes)
        var straight: [StateHash] = []
        for _ in 0..<200 { world.step(); straight.append(world.stateHash) }
        let fresh = try World(scene: scene)
        try fresh.restore(state)
        var continued: [StateHash] = []
        for _ in 0..<200 { fresh.step(); continued.append(fresh.stateHash) }
        #expect(continued == straight)
        #expect(fresh.makeup == world.makeup && world.makeup.contains { $0.broke })
    }

    @Test(arguments: [("0", "must be a finite number > 0"), ("-5", "must be a finite number > 0"), ("1e300", "must be a finite number > 0 (at most 1000000000000000), got 1e300")])
    func aThresholdThatIsNotFiniteAndPositiveIsRefused(value: String, message: String) throws {
        let text = """
            {"world": [200, 200], "gravity": [0, -10], "crates": [{"center": [100, 100], "size": [10, 10], "mass": 1}],
             "joints": [{"kind": "pivot", "a": "static", "b": 0, "pivot": [100, 110], "break_impulse": \(value)}]}
            """
        do {
            _ = try SceneLoader.parse(Array(text.utf8), file: "bad.json")
            Issue.record("accepted \(value)")
        } catch {
            #expect(error.description.contains("bad.json:2: joints[0].break_impulse: \(message)"), "\(error)")
        }
    }
}
