/// What an input line does.
public enum InputAction: Sendable, Equatable {
    case gravity(Vec2)
    /// To the body with this id (crates from 1, in creation order, as traces print them).
    case body(BodyID, BodyInput)
    /// A change to what the world is made of (docs/determinism.md, "A world that changes").
    case change(StructuralChange)
}

/// Something done to one body at a step boundary, from an input stream or the Swift API: a push,
/// a new velocity, a force held over the next steps, or a drag (a joint to a target the pointer
/// moves, as pymunk's and Box2D's samples drag bodies). Points are world coordinates.
public enum BodyInput: Sendable, Equatable {
    /// `cpBodyApplyImpulseAtWorldPoint` at `at`, or at the body's position when nil.
    case impulse(Vec2, at: Vec2?)
    /// `cpBodySetVelocity`.
    case velocity(Vec2)
    /// `cpBodySetAngularVelocity`.
    case angularVelocity(Double)
    /// A force (at `at`, a fixed world point, or the body's position) and a torque, applied before
    /// each of the next `steps` steps (Chipmunk clears forces after every step).
    case hold(force: Vec2, at: Vec2?, torque: Double, steps: Int)
    /// Takes hold of the body at `at` (a world point) with a drag: a pivot joint from the static
    /// body at a target (first `at`) to that point of the body, pulling with at most `maxForce`
    /// (nil: the body's mass × `Drag.defaultPull`). It lasts until `release`; a second grab of a
    /// body replaces its drag.
    case grab(at: Vec2, maxForce: Double?)
    /// Moves a grabbed body's target to this world point.
    case dragTo(Vec2)
    /// Lets go of a grabbed body.
    case release

    /// Whether it pushes (an impulse, a force, a drag), which only a dynamic body takes.
    public var pushes: Bool {
        switch self {
        case .impulse, .hold, .grab: true
        case .velocity, .angularVelocity, .dragTo, .release: false
        }
    }

    /// Problems with its values, named by the input line's keys.
    public func problems() -> [FieldProblem] {
        var list = ProblemList()
        switch self {
        case let .impulse(impulse, at):
            list.check("impulse", impulse, magnitude: Limits.impulse)
            if let at { list.check("at", at, magnitude: Limits.coordinate) }
        case let .velocity(velocity): list.check("velocity", velocity, magnitude: Limits.speed)
        case let .angularVelocity(rate): list.check("angular_velocity", rate, magnitude: Limits.angularSpeed)
        case let .hold(force, at, torque, steps):
            list.check("force", force, magnitude: Limits.force)
            if let at { list.check("at", at, magnitude: Limits.coordinate) }
            list.check("torque", torque, magnitude: Limits.force)
            list.check("steps", steps, in: Limits.heldSteps)
        case let .grab(at, maxForce):
            list.check("grab", at, magnitude: Limits.coordinate)
            if let maxForce { list.check("max_force", maxForce, in: Limits.jointForce) }
        case let .dragTo(target): list.check("drag_to", target, magnitude: Limits.coordinate)
        case .release: break
        }
        return list.problems
    }
}

/// A force held on a body: applied before each of its `remaining` steps, then dropped. Part of a
/// world's state, since the steps still to come read it.
public struct HeldForce: Sendable, Equatable {
    public var body: BodyID
    public var force: Vec2
    /// A world point; nil: the body's position at each step.
    public var at: Vec2?
    public var torque: Double
    /// Steps it still acts on (at least 1).
    public var remaining: Int

    public init(body: BodyID, force: Vec2, at: Vec2?, torque: Double, remaining: Int) {
        self.body = body
        self.force = force
        self.at = at
        self.torque = torque
        self.remaining = remaining
    }
}
