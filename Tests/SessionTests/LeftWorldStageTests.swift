import Foundation
import Physics
import SceneFile
import SceneModel
import Session
import Synchronization
import TestSupport
import Testing

/// A run warns once, naming the body and the step, when a body leaves the world.
@Suite struct LeftWorldStageTests {
    /// A world without bounding walls and a crate thrown sideways out of it, beside one that stays.
    static let thrownText = """
        {"name": "thrown", "world": [400, 300], "gravity": [0, -100],
         "crates": [{"center": [200, 150], "size": [20, 10], "mass": 1, "velocity": [2000, 0]},
                    {"center": [100, 150], "size": [20, 20], "mass": 1, "velocity": [-600, 0]}]}
        """

    static func plan(_ text: String, steps: Int) throws -> RunPlan {
        let bytes = Array(text.utf8)
        let scene = try SceneLoader.parse(bytes, file: "thrown.json")
        return RunPlan(start: .scene(scene, file: "thrown.json", text: bytes), length: .steps(steps), clock: .everyStep)
    }

    /// The first step the stage looks at (every `interval` steps) at which a body's centre is
    /// beyond the world by more than its size, found by stepping a world of the same scene by hand.
    static func firstStepOutside(_ text: String, limit: Int) throws -> (step: Int, body: BodyID)? {
        let scene = try SceneLoader.parse(Array(text.utf8), file: "thrown.json")
        let world = try World(scene: scene)
        let interval = LeftWorldStage.interval(stepRate: scene.stepRate)
        for _ in 0..<limit {
            world.step()
            guard world.stepCount % interval == 0 else { continue }
            for (body, crate) in zip(world.snapshot().bodies, world.crates) {
                let margin = max(crate.shape.boundingSize.x, crate.shape.boundingSize.y)
                let p = body.position
                if p.x < -margin || p.y < -margin || p.x > scene.worldSize.x + margin || p.y > scene.worldSize.y + margin {
                    return (world.stepCount, body.id)
                }
            }
        }
        return nil
    }

    @Test func aCrateThrownOutOfAWorldWithoutBoundsIsReportedOnceByIdAndStep() throws {
        let expected = try #require(try Self.firstStepOutside(Self.thrownText, limit: 240))
        let warnings = Mutex<[String]>([])
        let engine = try RunEngine(plan: Self.plan(Self.thrownText, steps: 240), onWarning: { warning in warnings.withLock { $0.append(warning) } })
        let outcome = engine.run(shouldStop: { false })
        #expect(outcome.result.counters.stepsTaken == 240)
        let said = warnings.withLock { $0 }
        // Both crates leave in 240 steps; only the first departure is told.
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.hasPrefix("body \(expected.body) left the world at step \(expected.step) ") == true, "\(said)")
    }

    @Test func aRunThatStaysInsideSaysNothingAndTheHashIsUnchanged() throws {
        let warnings = Mutex<[String]>([])
        let scene = try Repository.scene("book")
        let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.path("Scenes/book.json"))))
        var watched = RunPlan(start: .scene(scene, file: "Scenes/book.json", text: text), length: .steps(600), clock: .everyStep)
        let engine = try RunEngine(plan: watched, onWarning: { warning in warnings.withLock { $0.append(warning) } })
        let hash = engine.run(shouldStop: { false }).result.stateHash
        watched.watchesBodiesLeaving = false
        let unwatched = try RunEngine(plan: watched).run(shouldStop: { false }).result.stateHash
        #expect(warnings.withLock { $0 }.isEmpty)
        #expect(hash == unwatched)
    }
}
