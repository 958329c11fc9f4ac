import Physics
import SceneModel
import TestSupport
import Testing

/// Joints in a world: every kind of Chipmunk's built from a scene, moving, saved mid-motion and
/// continued exactly (in a fresh world, a copy, after a removal reordered the space's list), and
/// refused where Chipmunk would abort or misbehave.
@Suite struct JointTests {
    /// A workshop of every joint kind, each in motion within the first second.
    static let workshop: Scene = {
        func box(_ x: Double, _ y: Double, _ w: Double = 30, _ h: Double = 30, velocity: Vec2 = .zero) -> CrateSpec {
            CrateSpec(center: Vec2(x, y), size: Vec2(w, h), velocity: velocity, mass: 1)
        }
        func wheel(_ x: Double, _ y: Double) -> CrateSpec { CrateSpec(center: Vec2(x, y), shape: .circle(radius: 20), mass: 1) }
        let crates = [
            box(100, 400, velocity: Vec2(200, 0)), box(160, 400), box(340, 500, 80, 10), box(380, 470),
            box(550, 550, 20, 20, velocity: Vec2(150, 0)), box(550, 450), wheel(200, 200), wheel(260, 200), box(650, 300),
        ]
        let joints = [
            JointSpec(.pin(anchorA: Vec2(100, 500), anchorB: .zero), a: .world, b: .crate(0)),
            JointSpec(.slide(anchorA: Vec2(15, 0), anchorB: Vec2(-15, 0), min: 20, max: 60), a: .crate(0), b: .crate(1)),
            JointSpec(.pivot(point: Vec2(300, 500)), a: .world, b: .crate(2), settings: JointSettings(collideBodies: false)),
            JointSpec(.pivotAnchors(anchorA: Vec2(40, 0), anchorB: Vec2(0, 15)), a: .crate(2), b: .crate(3),
                      settings: JointSettings(maxBias: 200)),
            JointSpec(.groove(grooveA: Vec2(450, 550), grooveB: Vec2(750, 550), anchorB: .zero), a: .world, b: .crate(4)),
            JointSpec(.dampedSpring(anchorA: .zero, anchorB: .zero, restLength: 80, stiffness: 60, damping: 1), a: .crate(4), b: .crate(5)),
            JointSpec(.dampedRotarySpring(restAngle: 0.5, stiffness: 3e4, damping: 50), a: .crate(2), b: .crate(3)),
            JointSpec(.rotaryLimit(min: -0.3, max: 0.3), a: .crate(0), b: .crate(1), settings: JointSettings(errorBias: 0.01)),
            JointSpec(.pivot(point: Vec2(200, 200)), a: .world, b: .crate(6)),
            JointSpec(.pivot(point: Vec2(260, 200)), a: .world, b: .crate(7)),
            JointSpec(.ratchet(phase: 0, ratchet: -0.4), a: .world, b: .crate(6)),
            JointSpec(.gear(phase: 0, ratio: -2), a: .crate(6), b: .crate(7)),
            JointSpec(.simpleMotor(rate: -3), a: .world, b: .crate(7), settings: JointSettings(maxForce: 3e5)),
            JointSpec(.dampedSpring(anchorA: Vec2(650, 420), anchorB: Vec2(0, 15), restLength: 60, stiffness: 40, damping: 0.5),
                      a: .world, b: .crate(8)),
        ]
        return Scene(name: "workshop", worldSize: Vec2(800, 600), gravity: Vec2(0, -600), bounds: BoundsWalls(radius: 1), crates: crates,
                     joints: joints)
    }()

    static func trail(_ world: World, steps: Int) -> [StateHash] { SavedStateTests.trail(world, steps: steps) }

    @Test func theWorkshopIsValidAndEveryJointWorks() throws {
        #expect(Self.workshop.problems().isEmpty, "\(Self.workshop.problems())")
        let world = try World(scene: Self.workshop)
        #expect(world.joints.count == 14)
        let start = world.snapshot().bodies
        for _ in 0..<60 { world.step() }
        let later = world.snapshot().bodies
        for (before, after) in zip(start, later) {
            #expect(before.position != after.position || before.angle != after.angle, "body \(before.id) stands still")
        }
        #expect(world.joints.allSatisfy { $0.impulse.isFinite })
        #expect(world.joints.filter { $0.impulse != 0 }.count >= 12, "joints push: \(world.joints.map(\.impulse))")
        // The pendulum's pin keeps its length (100 px from its static anchor).
        let bob = later[0].position
        #expect(abs(((bob.x - 100) * (bob.x - 100) + (bob.y - 500) * (bob.y - 500)).squareRoot() - 100) < 1)
        // The motor turns its wheel at its rate (Chipmunk drives b.w − a.w to −rate).
        #expect(abs(later[7].angularVelocity - 3) < 0.05, "\(later[7].angularVelocity)")
    }

    @Test(.needsSavedStates(World.canSaveState)) func aJointedWorldSavedMidMotionContinuesExactly() throws {
        let original = try World(scene: Self.workshop)
        for _ in 0..<173 { original.step() }
        let state = try original.saveState()
        let fresh = try World(scene: Self.workshop)
        try fresh.restore(WorldState(bytes: state.bytes))
        let copy = try original.copy()
        let expected = Self.trail(original, steps: 240)
        #expect(Self.trail(fresh, steps: 240) == expected)
        #expect(Self.trail(copy, steps: 240) == expected)
    }

    /// Removing a joint moves Chipmunk's last one into its place in the space's list, which is the
    /// order the solver takes them in: a state keeps that order, so a copy (built in the world's
    /// own order) still continues exactly.
    @Test(.needsSavedStates(World.canSaveState)) func aStateKeepsTheOrderTheSpaceStepsItsJointsIn() throws {
        let world = try World(scene: Self.workshop)
        for _ in 0..<50 { world.step() }
        try world.remove(world.joints[1])
        for _ in 0..<50 { world.step() }
        let copy = try world.copy()
        #expect(Self.trail(copy, steps: 200) == Self.trail(world, steps: 200))
    }

    @Test(.needsSavedStates(World.canSaveState)) func aStateOfOtherJointsIsRefused() throws {
        let world = try World(scene: Self.workshop)
        for _ in 0..<20 { world.step() }
        let state = try world.saveState()
        var changed = Self.workshop
        changed.joints[12] = JointSpec(.simpleMotor(rate: -4), a: .world, b: .crate(7), settings: JointSettings(maxForce: 3e5))
        #expect(throws: StateError.otherWorld) { try World(scene: changed).restore(state) }
        var fewer = Self.workshop
        fewer.joints.removeLast()
        #expect(throws: StateError.otherWorld) { try World(scene: fewer).restore(state) }
    }

    /// The joints part of a state (after the bodies and the space: cpStateFormat.h) is checked
    /// byte by byte: a joint named twice, of another kind, or with a non-finite impulse.
    @Test(.needsSavedStates(World.canSaveState)) func aCorruptJointsPartIsRefused() throws {
        let world = try World(scene: Self.workshop)
        for _ in 0..<90 { world.step() }
        let state = try world.saveState()
        let joints = 8 + 4 + 72 * world.crates.count + 4 + 8
        func u32(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        #expect(u32(state.physics, joints) == 14)
        var repeated = state.physics
        repeated[joints + 4 + 4 + 1 + 8] = repeated[joints + 4]  // the second joint (after a pin's one value) named as the first
        var otherKind = state.physics
        otherKind[joints + 4 + 4] = 3  // the first, a pin, said to be a groove
        var notFinite = state.physics
        notFinite.replaceSubrange((joints + 4 + 5)..<(joints + 4 + 13), with: [0, 0, 0, 0, 0, 0, 0xF0, 0x7F])
        for bytes in [repeated, otherKind, notFinite] {
            var corrupt = state
            corrupt.physics = bytes
            let fresh = try World(scene: Self.workshop)
            #expect(throws: StateError.self) { try fresh.restore(WorldState(bytes: corrupt.bytes)) }
            #expect(fresh.stepCount == 0)
        }
    }

    @Test func aCrateHeldByAJointIsNotRemovedUnderIt() throws {
        let world = try World(scene: Self.workshop)
        #expect(throws: PhysicsError.crateHasJoints) { try world.remove(world.crates[0]) }
        for joint in world.joints where joint.a === world.crates[8] || joint.b === world.crates[8] { try world.remove(joint) }
        #expect(throws: Never.self) { try world.remove(world.crates[8]) }
    }

    @Test func jointsChipmunkWouldAbortOnAreRefused() throws {
        let world = try World(gravity: Vec2(0, -10))
        let crate = try world.addCrate(CrateSpec(center: Vec2(0, 0), size: Vec2(10, 10), mass: 1))
        let other = try World(gravity: Vec2(0, -10))
        let stranger = try other.addCrate(CrateSpec(center: Vec2(0, 0), size: Vec2(10, 10), mass: 1))
        let refused: [(JointKind, Crate?, Crate?, JointSettings)] = [
            (.pin(anchorA: .zero, anchorB: .zero), crate, crate, .standard),  // itself
            (.pivot(point: .zero), nil, nil, .standard),  // static to static
            (.pin(anchorA: .zero, anchorB: .zero), nil, crate, .standard),  // a pin of length 0
            (.gear(phase: 0, ratio: 0), nil, crate, .standard),
            (.ratchet(phase: 0, ratchet: 0), nil, crate, .standard),
            (.slide(anchorA: .zero, anchorB: .zero, min: 5, max: 2), nil, crate, .standard),
            (.dampedSpring(anchorA: .zero, anchorB: .zero, restLength: 1, stiffness: .nan, damping: 0), nil, crate, .standard),
            (.simpleMotor(rate: 1), nil, crate, JointSettings(maxForce: -1)),
            (.simpleMotor(rate: 1), nil, crate, JointSettings(errorBias: 2)),
            (.groove(grooveA: .zero, grooveB: .zero, anchorB: .zero), nil, crate, .standard),
        ]
        for (kind, a, b, settings) in refused {
            #expect(throws: PhysicsError.self, "\(kind)") { try world.addJoint(kind, a: a, b: b, settings: settings) }
        }
        #expect(throws: PhysicsError.notInThisWorld) { try world.addJoint(.pivot(point: .zero), a: nil, b: stranger) }
        #expect(world.joints.isEmpty)
    }

    @Test func theFingerprintTellsJointsApart() throws {
        let base = try World(scene: Self.workshop).fingerprint
        var settings = Self.workshop
        settings.joints[0].settings.collideBodies = false
        var ends = Self.workshop
        ends.joints[5].b = .crate(8)
        var none = Self.workshop
        none.joints = []
        let prints = try [settings, ends, none].map { try World(scene: $0).fingerprint }
        #expect(Set(prints + [base]).count == 4)
    }
}
