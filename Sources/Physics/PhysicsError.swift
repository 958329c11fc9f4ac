import SceneModel

/// A value or a request the physics world refuses, rather than letting Chipmunk abort.
public enum PhysicsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A value out of range; the problems name the fields.
    case invalidValue(what: String, problems: [FieldProblem])
    /// The crate is in a world already (this one or another).
    case crateAlreadyInWorld
    /// The crate, wall or joint is not in this world.
    case notInThisWorld
    /// The crate is held by a joint: remove the joint first.
    case crateHasJoints

    public var description: String {
        switch self {
        case let .invalidValue(what, problems):
            "invalid \(what): " + problems.map { $0.description }.joined(separator: "; ")
        case .crateAlreadyInWorld: "the crate is already in a world; remove it first"
        case .notInThisWorld: "the body is not in this world"
        case .crateHasJoints: "the crate is held by a joint; remove the joint first"
        }
    }
}
