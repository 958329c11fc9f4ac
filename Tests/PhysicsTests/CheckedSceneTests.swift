import Physics
import SceneFile
import SceneModel
import TestSupport
import Testing

/// A scene is checked once: a `CheckedScene` is the proof a world takes instead of checking again.
@Suite struct CheckedSceneTests {
    /// Friction past its limit: out of range for a scene, harmless to Chipmunk (it is only a number there).
    static func sceneWithTooMuchFriction() throws -> Scene {
        var scene = try Repository.scene("book")
        scene.crates[0].friction = Limits.friction.upperBound * 2
        return scene
    }

    @Test func aSceneWithABadValueIsNotCheckedScene() throws {
        #expect(throws: SceneProblems.self) { try CheckedScene(Self.sceneWithTooMuchFriction()) }
        #expect(throws: PhysicsError.self) { try World(scene: Self.sceneWithTooMuchFriction()) }
        let good = try CheckedScene(Repository.scene("book"))
        #expect(try World(checked: good).crates.count == good.scene.allCrates().count)
    }

    /// The proof is taken as given: a world built from a checked scene does not check its values
    /// again (here a proof made by hand, past the loader, which the loader would never give).
    @Test func aWorldTakesTheProofAndDoesNotCheckAgain() throws {
        let scene = try Self.sceneWithTooMuchFriction()
        let world = try World(checked: CheckedScene(decoded: scene))
        #expect(world.crates.count == scene.allCrates().count)
    }

    @Test func theLoaderGivesTheSameSceneChecked() throws {
        let (checked, text) = try SceneLoader.loadChecked(path: Repository.path("Scenes/book.json"))
        #expect(checked.scene == (try SceneLoader.parse(text, file: Repository.path("Scenes/book.json"))))
    }
}
