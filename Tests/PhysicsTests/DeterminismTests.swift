import Physics
import SceneModel
import TestSupport
import Testing

@Suite struct DeterminismTests {
    static let goldenDirectory = Repository.path("Tests/PhysicsTests/Golden")
    static let goldenSteps = [1, 120, 1200]

    /// Hashes of a shipped scene at steps 1, 120 and 1200 (10 s), compared with the golden file of
    /// the determinism class this process runs in (`Golden/CLASS/SCENE-hashes.txt`). The book scene
    /// gives the same hashes in every class measured so far; the piles and the tumbler do not.
    @Test(arguments: ["book", "pile-100", "tumbler", "ramp", "stack", "barrels", "galton", "domino", "seesaw", "newton-cradle", "bridge", "car", "letters"])
    func sceneMatchesGoldenHashes(scene name: String) throws {
        let world = try World(scene: Repository.scene(name))
        var found: [(key: String, value: String)] = []
        for step in 1...Self.goldenSteps.last! {
            world.step()
            if Self.goldenSteps.contains(step) { found.append((String(step), world.stateHash.description)) }
        }
        let golden = try GoldenFile(directory: Self.goldenDirectory, determinismClass: DeterminismClass.current.id,
                                    name: "\(name)-hashes.txt")
        if GoldenFile.isRecording {
            try golden.record(found)
            Issue.record("Recorded new golden hashes in \(golden.path); run again without RECORD_GOLDEN")
            return
        }
        for (step, hash) in found {
            #expect(golden.value(step) == hash, "\(name), step \(step)")
        }
        #expect(golden.values.count == Self.goldenSteps.count)
    }

    @Test(arguments: ["book", "pile-100"])
    func twoWorldsFromOneSceneAgreeStepByStep(name: String) throws {
        let scene = try Repository.scene(name)
        let first = try World(scene: scene), second = try World(scene: scene)
        for _ in 0..<600 {
            first.step()
            second.step()
            #expect(first.snapshot() == second.snapshot())
        }
    }

    @Test func oneULPOfFrictionChangesTheHash() throws {
        var scene = try Repository.scene("book")
        let reference = try World(scene: scene)
        scene.crates[0].friction = scene.crates[0].friction.nextUp
        let nudged = try World(scene: scene)
        for _ in 0..<1200 {
            reference.step()
            nudged.step()
        }
        #expect(reference.stateHash != nudged.stateHash)
    }
}
