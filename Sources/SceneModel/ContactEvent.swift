/// Who takes part in a contact: a body (a crate, by id) or a wall (by its place in the world:
/// `walls` in order, then a tumbler's four).
public enum ContactParty: Sendable, Hashable, Comparable, CustomStringConvertible {
    case body(BodyID)
    case wall(Int)

    /// Bodies first, by id; then walls, by index.
    public static func < (a: ContactParty, b: ContactParty) -> Bool {
        switch (a, b) {
        case let (.body(x), .body(y)): x < y
        case (.body, .wall): true
        case (.wall, .body): false
        case let (.wall(x), .wall(y)): x < y
        }
    }

    public var description: String {
        switch self {
        case let .body(id): "\(id)"
        case let .wall(index): "wall \(index)"
        }
    }
}

/// Two shapes that began or stopped touching in a step (or a sensor's overlap that began or
/// ended), as a world reports them after the step: its pair in order (`a` before `b`), where the
/// contact began and its normal from `a` to `b`, and the impulse of its first step.
public struct ContactEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// They touch from this step on: the first step's contact point, normal and impulses.
        case begin
        /// They stopped touching in this step (or one of them left the world).
        case end
        /// A sensor began to overlap the other shape (a sensor never pushes: no impulse).
        case sensorEnter = "sensor_enter"
        case sensorExit = "sensor_exit"
        /// A breakable joint broke in this step (`joint` names it): `a` and `b` its bodies (`b` a
        /// wall of index -1 for the static body), `normalImpulse` the impulse it applied.
        case jointBroke = "joint_broke"
    }

    /// The step after which it is seen (the world's step count then).
    public var step: Int
    public var kind: Kind
    public var a: ContactParty
    public var b: ContactParty
    /// Where they touch (midway between the surfaces, of the first contact point), for begin and sensor_enter.
    public var point: Vec2?
    /// The contact normal, from `a` towards `b`.
    public var normal: Vec2?
    /// The impulse along the normal and across it in the step it began (mass · px/s); 0 otherwise.
    public var normalImpulse: Double
    public var tangentImpulse: Double
    /// The joint that broke, for `jointBroke`.
    public var joint: JointID?

    public init(step: Int, kind: Kind, a: ContactParty, b: ContactParty, point: Vec2? = nil, normal: Vec2? = nil, normalImpulse: Double = 0,
                tangentImpulse: Double = 0, joint: JointID? = nil) {
        self.joint = joint
        self.step = step
        self.kind = kind
        self.a = a
        self.b = b
        self.point = point
        self.normal = normal
        self.normalImpulse = normalImpulse
        self.tangentImpulse = tangentImpulse
    }

    /// The order events of one step are reported in, whatever order Chipmunk met them in: by pair,
    /// then kind.
    public static func reportOrder(_ x: ContactEvent, _ y: ContactEvent) -> Bool {
        if x.a != y.a { return x.a < y.a }
        if x.b != y.b { return x.b < y.b }
        return Kind.allCases.firstIndex(of: x.kind)! < Kind.allCases.firstIndex(of: y.kind)!
    }
}
