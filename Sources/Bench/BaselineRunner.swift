import Physics
import SceneModel

/// Runs the C baseline alone (for instruction counting): warm-up, then `steps` measured steps.
package enum BaselineRunner {
    /// - Returns: the C side's state hash after all steps.
    package static func run(scene: Scene, warmup: Int, steps: Int) -> StateHash {
        let baseline = BaselineWorld(scene: scene)
        baseline.step(warmup)
        baseline.step(steps)
        return baseline.stateHash
    }

    /// The C baseline's hash after each of `steps` steps, each input (timed lines of an input
    /// stream, in order) applied before the step it names: what `cratedrop hash --every 1 --inputs`
    /// prints, from an independent build in plain C.
    package static func trail(scene: Scene, inputs: [(step: Int, action: InputAction)], steps: Int) -> [StateHash] {
        let baseline = BaselineWorld(scene: scene)
        var next = inputs[...]
        return (0..<steps).map { step in
            while let input = next.first, input.step <= step {
                baseline.apply(input.action)
                next = next.dropFirst()
            }
            baseline.step(1)
            return baseline.stateHash
        }
    }

    /// The spawned crates CrateDrop's own world refuses in `steps` steps of `scene` with `inputs`
    /// (applied as `trail` applies them): how many, and the first. The C baseline has no crowding
    /// check and makes each, so its hashes part from CrateDrop's at the first; the bench tells
    /// that rather than print hashes that silently differ. A line CrateDrop refuses is passed
    /// over here (`cratedrop hash` stops at it, 65).
    package static func refusedSpawns(scene: Scene, inputs: [(step: Int, action: InputAction)], steps: Int) throws
        -> (count: Int, first: RefusedSpawn?) {
        // After the last release nothing more can be refused.
        let last = scene.spawners.compactMap { $0.lastStep(stepRate: scene.stepRate) }.max() ?? -1
        let world = try World(scene: scene)
        var next = inputs[...]
        for step in 0..<min(steps, last + 1) {
            while let input = next.first, input.step <= step {
                switch input.action {
                case let .gravity(gravity): try? world.setGravity(gravity)
                case let .body(id, input): try? world.apply(input, to: id)
                case let .change(change): _ = try? world.apply(change)
                }
                next = next.dropFirst()
            }
            world.step()
            if world.refusedSpawnCount > 0 { break }
        }
        return (world.refusedSpawnCount, world.refusedSpawns.first)
    }
}
