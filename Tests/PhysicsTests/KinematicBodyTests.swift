import Physics
import SceneModel
import TestSupport
import Testing

/// Kinematic bodies in scenes and worlds: moved only by their velocity (from the scene or set by
/// inputs), carrying what rests on them; never pushed, never joined to the static world alone.
@Suite struct KinematicBodyTests {
    static func lift() throws -> World {
        let world = try World(gravity: Vec2(0, -1000))
        try world.addCrate(.kinematic(center: Vec2(0, 0), shape: .box(size: Vec2(200, 10)), velocity: Vec2(0, 50), friction: 1))
        try world.addCrate(CrateSpec(center: Vec2(0, 20), size: Vec2(30, 30), mass: 1, friction: 1))
        return world
    }

    @Test func aKinematicLiftMovesAtItsVelocityAndCarriesACrate() throws {
        let world = try Self.lift()
        for _ in 0..<240 { world.step() }
        let (platform, crate) = (world.snapshot().bodies[0], world.snapshot().bodies[1])
        // 2 s at 50 px/s, whatever rests on it.
        #expect(abs(platform.position.y - 100) < 1e-9 && platform.velocity == Vec2(0, 50), "\(platform)")
        #expect(abs(crate.position.y - (platform.position.y + 20)) < 0.5 && abs(crate.velocity.y - 50) < 1, "\(crate)")
    }

    @Test func inputsSetAKinematicBodysVelocityAndRefuseToPushIt() throws {
        let world = try Self.lift()
        try world.apply(.velocity(Vec2(10, 0)), to: BodyID(1))
        try world.apply(.angularVelocity(0.5), to: BodyID(1))
        world.step()
        #expect(world.snapshot().bodies[0].velocity == Vec2(10, 0) && world.snapshot().bodies[0].angularVelocity == 0.5)
        for push in [BodyInput.impulse(Vec2(0, 1), at: nil), .hold(force: Vec2(0, 1), at: nil, torque: 0, steps: 2)] {
            #expect(throws: PhysicsError.self) { try world.apply(push, to: BodyID(1)) }
        }
        #expect(world.heldForces.isEmpty)
    }

    @Test func aJointNeedsADynamicEnd() throws {
        let world = try Self.lift()
        #expect(throws: PhysicsError.self) { try world.addJoint(.pivot(point: .zero), a: nil, b: world.crates[0]) }
        #expect(throws: Never.self) { try world.addJoint(.pivot(point: Vec2(0, 20)), a: world.crates[0], b: world.crates[1]) }
    }

    @Test func aKinematicBodyIsTheWorldsMakeUp() throws {
        let kinematic = try Self.lift()
        let dynamic = try World(gravity: Vec2(0, -1000))
        try dynamic.addCrate(CrateSpec(center: Vec2(0, 0), size: Vec2(200, 10), velocity: Vec2(0, 50), mass: 1e9,
                                       friction: 1))
        try dynamic.addCrate(CrateSpec(center: Vec2(0, 20), size: Vec2(30, 30), mass: 1, friction: 1))
        #expect(kinematic.fingerprint != dynamic.fingerprint)
    }

    @Test(.needsSavedStates(World.canSaveState)) func aKinematicBodyIsInTheWorldsState() throws {
        let kinematic = try Self.lift()
        for _ in 0..<97 { kinematic.step() }
        let copy = try kinematic.copy()
        #expect(SavedStateTests.trail(copy, steps: 120) == SavedStateTests.trail(kinematic, steps: 120))
    }

    @Test func theShippedLiftSceneHasAKinematicPlatform() throws {
        let scene = try Repository.scene("lift")
        #expect(scene.crates[0].bodyType == .kinematic && scene.crates[0].mass == .infinity)
        #expect(scene.problems().isEmpty)
    }
}
