/// A joint's id in its world: 1, 2, ... in the order joints are made (the scene's in file order,
/// then those added as the world runs), never used again once its joint leaves.
public struct JointID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: JointID, b: JointID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// A change to what a world is made of, at a step boundary: a body, wall or joint added, or a
/// body or joint taken out (docs/determinism.md, "A world that changes"). A world's make-up is
/// its scene and the ordered log of these it has been through (`MakeupChange`).
public enum StructuralChange: Sendable, Equatable {
    /// A crate, built exactly as a scene's crate is; it gets the world's next body id.
    case addCrate(CrateSpec)
    /// A static wall, added after the world's others.
    case addWall(WallSpec)
    /// A joint between bodies named by id (nil: the world's static body); it gets the next joint id.
    case addJoint(JointKind, a: BodyID?, b: BodyID?, settings: JointSettings)
    /// The body leaves: the joints that hold it first (ascending joint id), then its shape, then
    /// the body. Its id is retired.
    case removeBody(BodyID)
    /// The joint leaves; its id is retired.
    case removeJoint(JointID)

    /// Problems with the change's own values, named by the input line's keys (`add.mass`,
    /// `add_joint.rate`); what the world must also hold (the ids it names) is checked as it applies.
    public func problems() -> [FieldProblem] {
        switch self {
        case let .addCrate(spec): spec.problems().map { FieldProblem("add.\($0.field)", $0.message) }
        case let .addWall(spec): spec.problems().map { FieldProblem("add_wall.\($0.field)", $0.message) }
        case let .addJoint(kind, a, b, settings):
            // Ends by id: the spec's own index checks do not apply; a crate index stands in.
            JointSpec(kind, a: a == nil ? .world : .crate(0), b: b == nil ? .world : .crate(1), settings: settings).problems()
                .map { FieldProblem("add_joint.\($0.field)", $0.message) }
        case .removeBody, .removeJoint: []
        }
    }
}

/// One entry of a world's make-up log: the change, the step boundary it was made at (the world's
/// step count then), and what it made or took (ids assigned, joints taken with a body), so a log
/// read back can be checked against what replaying it makes.
public struct MakeupChange: Sendable, Equatable {
    public var step: Int
    public var change: StructuralChange
    /// The body or joint id an add gave (nil for removals and walls).
    public var made: UInt64?
    /// The joints a body's removal took with it, ascending.
    public var jointsRemoved: [JointID]
    /// What an added joint worked out from where its bodies were at `step` (a pin's length, a
    /// pivot's anchors, a ratchet's angle): a replay of the log, whose bodies are elsewhere then,
    /// sets these rather than working them out again.
    public var madeValues: [Double]
    /// Whether the joint a `removeJoint` takes out broke (its impulse passed its threshold in the
    /// step before `step`) rather than being removed by an input.
    public var broke = false

    public init(step: Int, change: StructuralChange, made: UInt64? = nil, jointsRemoved: [JointID] = [], madeValues: [Double] = []) {
        self.step = step
        self.change = change
        self.made = made
        self.jointsRemoved = jointsRemoved
        self.madeValues = madeValues
    }
}

/// A breakable joint that broke in a step: its impulse in the step passed its threshold
/// (`JointSettings.breakImpulse`, `breakForce`), and it was removed at the step's end.
public struct JointBreak: Sendable, Equatable {
    /// The world's step count after the step it broke in.
    public var step: Int
    public var joint: JointID
    /// Its bodies; nil for the static body.
    public var a: BodyID?
    public var b: BodyID?
    /// The impulse it applied in the step (mass · px/s, or mass · px² /s for the rotary kinds).
    public var impulse: Double

    public init(step: Int, joint: JointID, a: BodyID?, b: BodyID?, impulse: Double) {
        self.step = step
        self.joint = joint
        self.a = a
        self.b = b
        self.impulse = impulse
    }

    /// As a `joint_broke` contact event: its first body as `a` (the other body as `b`, or the
    /// static body as wall -1), its impulse as the normal impulse.
    public var event: ContactEvent {
        let bodies = [a, b].compactMap { $0 }
        return ContactEvent(step: step, kind: .jointBroke, a: .body(bodies.first ?? BodyID(0)),
                            b: bodies.count > 1 ? .body(bodies[1]) : .wall(-1), normalImpulse: impulse, joint: joint)
    }
}
