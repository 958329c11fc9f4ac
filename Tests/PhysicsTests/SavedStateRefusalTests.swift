@testable import Physics
import SceneModel
import TestSupport
import Testing

/// A save the C side refuses part way (its list of the world's shapes is not the world's) leaves
/// the world exactly as it was: while it works, the save numbers shapes and pairs in the shapes'
/// hash ids and the pairs' id fields, and every one must be back. A world of a wrong list is a
/// bug of CrateDrop's own, never a user's, so this reaches past the public API.
@Suite(.enabled(if: World.canSaveState, "saved states need the portable backend"))
struct SavedStateRefusalTests {
    /// The shapes as the world lists them for its states: walls, tumblers' walls, crates.
    static func shapes(of world: World) -> [OpaquePointer] {
        world.walls.map(\.shape) + world.tumblers.flatMap(\.shapes) + world.crates.map(\.collisionShape)
    }

    @Test(arguments: ["pile-100", "tumbler"])
    func aSaveOfAWrongShapeListLeavesTheWorldAsItWas(scene: String) throws {
        let world = try SavedStateTests.stepped(scene, steps: 301)
        let twin = try SavedStateTests.stepped(scene, steps: 301)
        let before = try world.saveState()
        let shapes = Self.shapes(of: world)
        let bodies = world.tumblers.map(\.body) + world.crates.map(\.body)
        let wrongLists = [
            Array(shapes.dropFirst()),  // a wall left out: its pairs name a leaf not listed
            shapes + [shapes[shapes.count - 1]],  // a crate listed twice
            Array(shapes.dropLast()),  // a crate left out: the tree holds a leaf not listed
        ]
        for list in wrongLists {
            let makeup = StateMakeup(shapes: list, bodies: bodies, fingerprint: world.fingerprint)
            #expect(throws: SavedStateCallError.self) { _ = try SavedStateCalls.save(space: world.space, makeup: makeup) }
        }
        #expect(try world.saveState().physics == before.physics)
        #expect(SavedStateTests.trail(world, steps: 60) == SavedStateTests.trail(twin, steps: 60))
    }
}
