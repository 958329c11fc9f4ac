/// A change to one body (or a crate added) at a step boundary: what a sweep's counterfactual does
/// to a sample (docs/sweeps.md, "Counterfactual pairs"). Applied after that step's input lines,
/// before the next step, so the run is the same as without it up to `step`; a removal or an add is
/// a structural change of the world's make-up, which saved states and records hold.
public struct WorldEdit: Sendable, Equatable {
    /// The world's step count when it applies (0: before the first step).
    public var step: Int
    public var body: BodyID
    public var change: Change

    public enum Change: Sendable, Equatable {
        /// The body leaves the world, its joints first (`StructuralChange.removeBody`).
        case remove
        /// A crate is added (`StructuralChange.addCrate`; `body` is not used): it gets the next id.
        case add(CrateSpec)
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
        case let .add(spec): for problem in spec.problems() { list.add("add.\(problem.field)", problem.message) }
        case let .position(point): list.check("position", point, magnitude: Limits.coordinate)
        case let .velocity(velocity): list.check("velocity", velocity, magnitude: Limits.speed)
        }
        return list.problems
    }
}
