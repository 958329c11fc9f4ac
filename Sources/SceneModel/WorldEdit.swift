/// A change to one body at a step boundary that no input line makes: what a sweep's
/// counterfactual does to a sample (docs/sweeps.md, "Counterfactual pairs"). Applied after that
/// step's input lines, before the next step, so the run is the same as without it up to `step`.
public struct WorldEdit: Sendable, Equatable {
    /// The world's step count when it applies (0: before the first step).
    public var step: Int
    public var body: BodyID
    public var change: Change

    public enum Change: Sendable, Equatable {
        /// The body leaves the world (`World.remove`).
        case remove
        /// The body's centre is set there (`cpBodySetPosition`); its angle and velocity stay.
        case position(Vec2)
        /// The body's velocity is set (`cpBodySetVelocity`).
        case velocity(Vec2)
    }

    public init(step: Int, body: BodyID, change: Change) {
        self.step = step
        self.body = body
        self.change = change
    }

    /// The change's values out of range, each with its key (`position`, `velocity`).
    public var problems: [FieldProblem] {
        var list = ProblemList()
        switch change {
        case .remove: break
        case let .position(point): list.check("position", point, magnitude: Limits.coordinate)
        case let .velocity(velocity): list.check("velocity", velocity, magnitude: Limits.speed)
        }
        return list.problems
    }
}
