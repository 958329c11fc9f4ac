import Foundation
import Physics
import SceneModel
import TestSupport
import Testing

/// Drags (`BodyInput.grab`, `.dragTo`, `.release`): a body held by a joint to a target that
/// moves it, in the world's state like a held force, refused where it cannot apply.
@Suite struct DragTests {
    /// The book scene, crate 3 (64 px, mass 100) grabbed at its top-left corner's neighbourhood
    /// after it has landed.
    static func grabbedBook() throws -> World {
        let world = try World(scene: Repository.scene("book"))
        for _ in 0..<120 { world.step() }
        let crate = world.snapshot().bodies[2]
        try world.apply(.grab(at: crate.position + Vec2(-20, 20), maxForce: nil), to: BodyID(3))
        return world
    }

    @Test func aDraggedBodyFollowsItsTargetAndStaysAfterRelease() throws {
        let world = try Self.grabbedBook()
        #expect(world.drags.count == 1 && world.drags[0].maxForce == 100 * Drag.defaultPull)
        let grabbedPoint = world.drags[0].target
        // Lift it 100 px up and 60 px right, at 120 px/s, then hold it there for half a second.
        let goal = grabbedPoint + Vec2(60, 100)
        for step in 1...60 {
            try world.apply(.dragTo(grabbedPoint + (goal - grabbedPoint) * (Double(step) / 60)), to: BodyID(3))
            world.step()
        }
        for _ in 0..<60 { world.step() }
        let held = world.snapshot().bodies[2]
        // The held point is where the target is, within the joint's slack; the body hangs from it.
        let anchor = world.drags[0].anchor
        let heldPoint = held.position + Vec2(anchor.x * cos(held.angle) - anchor.y * sin(held.angle),
                                             anchor.x * sin(held.angle) + anchor.y * cos(held.angle))
        #expect((heldPoint - goal).length < 2, "held at \(heldPoint), target \(goal)")
        try world.apply(.release, to: BodyID(3))
        #expect(world.drags.isEmpty)
        for _ in 0..<120 { world.step() }
        #expect(world.snapshot().bodies[2].position.y < held.position.y - 50, "it fell once let go")
    }

    @Test func dragsAreRefusedWhereTheyCannotApply() throws {
        let world = try Self.grabbedBook()
        // Body 2 is not grabbed; body 9 is not in the world.
        #expect(throws: PhysicsError.self) { try world.apply(.dragTo(Vec2(1, 1)), to: BodyID(2)) }
        #expect(throws: PhysicsError.self) { try world.apply(.release, to: BodyID(2)) }
        #expect(throws: PhysicsError.self) { try world.apply(.grab(at: Vec2(1, 1), maxForce: nil), to: BodyID(9)) }
        #expect(throws: PhysicsError.self) { try world.apply(.grab(at: Vec2(1e7, 1), maxForce: nil), to: BodyID(2)) }
        #expect(throws: PhysicsError.self) { try world.apply(.grab(at: Vec2(1, 1), maxForce: -.infinity), to: BodyID(2)) }
        let lift = try KinematicBodyTests.lift()
        #expect(throws: PhysicsError.self) { try lift.apply(.grab(at: .zero, maxForce: nil), to: BodyID(1)) }
        #expect(world.drags.map(\.body) == [BodyID(3)] && lift.drags.isEmpty)
        // A second grab replaces the first; removing the crate takes its drag.
        try world.apply(.grab(at: Vec2(100, 40), maxForce: 5000), to: BodyID(3))
        #expect(world.drags.count == 1 && world.drags[0].target == Vec2(100, 40) && world.drags[0].maxForce == 5000)
        try world.remove(world.crates[2])
        #expect(world.drags.isEmpty)
        world.step()
    }

    @Test(.needsSavedStates(World.canSaveState)) func aStateSavedMidDragContinuesBitForBit() throws {
        let world = try Self.grabbedBook()
        try world.apply(.grab(at: Vec2(20, 20), maxForce: 30_000), to: BodyID(1))
        for step in 1...30 {
            try world.apply(.dragTo(Vec2(100 + Double(step), 150)), to: BodyID(3))
            world.step()
        }
        let state = try world.saveState()
        #expect(state.drags.map(\.body) == [BodyID(1), BodyID(3)])
        // Into a fresh world of the scene, through the bytes, and into a copy.
        let fresh = try World(scene: Repository.scene("book"))
        try fresh.restore(WorldState(bytes: state.bytes))
        let copy = try world.copy()
        let expected = SavedStateTests.trail(world, steps: 120)
        #expect(SavedStateTests.trail(fresh, steps: 120) == expected)
        #expect(SavedStateTests.trail(copy, steps: 120) == expected)
        // Back into the world itself after a release (its drags are made again from the state).
        try world.apply(.release, to: BodyID(3))
        try world.restore(state)
        #expect(world.drags == state.drags)
        #expect(SavedStateTests.trail(world, steps: 120) == expected)
    }

    @Test(.needsSavedStates(World.canSaveState)) func aStateWithoutTheDragLetsGoOnRestore() throws {
        let world = try World(scene: Repository.scene("book"))
        for _ in 0..<60 { world.step() }
        let before = try world.saveState()
        let twin = try world.copy()
        try world.apply(.grab(at: Vec2(40, 40), maxForce: nil), to: BodyID(1))
        for _ in 0..<10 { world.step() }
        try world.restore(before)
        #expect(world.drags.isEmpty)
        #expect(SavedStateTests.trail(world, steps: 60) == SavedStateTests.trail(twin, steps: 60))
    }
}
