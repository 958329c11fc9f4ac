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
}
