import Physics
import SceneModel
import TestSupport
import Testing

@Suite struct DeterminismTests {
    static let goldenPath = Repository.path("Tests/PhysicsTests/Golden/book-hashes.txt")
    static let goldenSteps = [1, 120, 1200]

    /// Hashes of the book scene at steps 1, 120 and 1200 (10 s), compared with the golden file.
    @Test func bookSceneMatchesGoldenHashes() throws {
        let world = try World(scene: Repository.scene("book"))
        var found: [(key: String, value: String)] = []
        for step in 1...Self.goldenSteps.last! {
            world.step()
            if Self.goldenSteps.contains(step) { found.append((String(step), world.stateHash.description)) }
        }
        let golden = try GoldenFile(path: Self.goldenPath)
        if GoldenFile.isRecording {
            try golden.record(found)
            Issue.record("Recorded new golden hashes in \(Self.goldenPath); run again without RECORD_GOLDEN")
            return
        }
        for (step, hash) in found {
            #expect(golden.value(step) == hash, "book scene, step \(step)")
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
