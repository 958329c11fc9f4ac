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
}
