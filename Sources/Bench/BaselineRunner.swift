import SceneModel

/// Runs the C baseline alone (for instruction counting): warm-up, then `steps` measured steps.
public enum BaselineRunner {
    /// - Returns: the C side's state hash after all steps.
    public static func run(scene: Scene, warmup: Int, steps: Int) -> StateHash {
        let baseline = BaselineWorld(scene: scene)
        baseline.step(warmup)
        baseline.step(steps)
        return baseline.stateHash
    }
}
