/// One end of a joint: a crate, by its place in the scene's creation order (`crates` first, then
/// the generator's: the index error paths write as `crates[3]`), or the world's static body.
public enum JointEnd: Sendable, Hashable {
    case crate(Int)
    /// The world's static body (`"static"` in scene files); its anchors are world coordinates.
    case world

    /// The crate's index, nil for the static body.
    public var crateIndex: Int? {
        if case let .crate(index) = self { index } else { nil }
    }
}

/// What a joint does, with Chipmunk's parameters under pymunk's names. Anchors are in their body's
/// own frame (pixels from its centre, unrotated); on the static body they are world coordinates.
/// Angles in radians, rates in radians per second.
public enum JointKind: Sendable, Equatable {
    /// Keeps the anchors at the distance they start at (`cpPinJointNew`).
    case pin(anchorA: Vec2, anchorB: Vec2)
    /// Keeps the anchors' distance within `min...max` (`cpSlideJointNew`).
    case slide(anchorA: Vec2, anchorB: Vec2, min: Double, max: Double)
    /// Pins the bodies together at a world point, where they turn about each other (`cpPivotJointNew`).
    case pivot(point: Vec2)
    /// Pins anchor A to anchor B (`cpPivotJointNew2`).
    case pivotAnchors(anchorA: Vec2, anchorB: Vec2)
    /// Keeps anchor B on the groove from `grooveA` to `grooveB` in A's frame (`cpGrooveJointNew`).
    case groove(grooveA: Vec2, grooveB: Vec2, anchorB: Vec2)
    /// A spring with a damper between the anchors (`cpDampedSpringNew`).
    case dampedSpring(anchorA: Vec2, anchorB: Vec2, restLength: Double, stiffness: Double, damping: Double)
    /// A spring with a damper on the bodies' relative angle (`cpDampedRotarySpringNew`).
    case dampedRotarySpring(restAngle: Double, stiffness: Double, damping: Double)
    /// Keeps the relative angle within `min...max` (`cpRotaryLimitJointNew`).
    case rotaryLimit(min: Double, max: Double)
    /// Lets the relative angle grow one way only, in notches of `ratchet` (`cpRatchetJointNew`).
    case ratchet(phase: Double, ratchet: Double)
    /// Keeps the angular velocities in `ratio` (`cpGearJointNew`).
    case gear(phase: Double, ratio: Double)
    /// Drives the relative angular velocity to `rate` (`cpSimpleMotorNew`).
    case simpleMotor(rate: Double)

    /// The kinds by the names scene files write (a pivot by a point or by two anchors is one kind).
    public enum Name: String, Sendable, CaseIterable {
        case pin, slide, pivot, groove
        case dampedSpring = "damped_spring"
        case dampedRotarySpring = "damped_rotary_spring"
        case rotaryLimit = "rotary_limit"
        case ratchet, gear
        case simpleMotor = "simple_motor"
    }

    public var name: Name {
        switch self {
        case .pin: .pin
        case .slide: .slide
        case .pivot, .pivotAnchors: .pivot
        case .groove: .groove
        case .dampedSpring: .dampedSpring
        case .dampedRotarySpring: .dampedRotarySpring
        case .rotaryLimit: .rotaryLimit
        case .ratchet: .ratchet
        case .gear: .gear
        case .simpleMotor: .simpleMotor
        }
    }

    /// The kind's number in fingerprints and the C harnesses (`cbaseline.h`, CBASELINE_JOINT_*: BenchTests checks that they agree).
    public var number: Int {
        switch self {
        case .pin: 0
        case .slide: 1
        case .pivot: 2
        case .pivotAnchors: 3
        case .groove: 4
        case .dampedSpring: 5
        case .dampedRotarySpring: 6
        case .rotaryLimit: 7
        case .ratchet: 8
        case .gear: 9
        case .simpleMotor: 10
        }
    }

    /// The kind's parameters in the order of its `cp…New` call (after the two bodies), points as
    /// x then y: what fingerprints hash and the C harnesses pass.
    public var parameters: [Double] {
        switch self {
        case let .pin(a, b): [a.x, a.y, b.x, b.y]
        case let .slide(a, b, min, max): [a.x, a.y, b.x, b.y, min, max]
        case let .pivot(point): [point.x, point.y]
        case let .pivotAnchors(a, b): [a.x, a.y, b.x, b.y]
        case let .groove(grooveA, grooveB, anchorB): [grooveA.x, grooveA.y, grooveB.x, grooveB.y, anchorB.x, anchorB.y]
        case let .dampedSpring(a, b, restLength, stiffness, damping): [a.x, a.y, b.x, b.y, restLength, stiffness, damping]
        case let .dampedRotarySpring(restAngle, stiffness, damping): [restAngle, stiffness, damping]
        case let .rotaryLimit(min, max): [min, max]
        case let .ratchet(phase, ratchet): [phase, ratchet]
        case let .gear(phase, ratio): [phase, ratio]
        case let .simpleMotor(rate): [rate]
        }
    }
}

/// The settings every joint has (Chipmunk's `cpConstraint` fields); nil leaves Chipmunk's default,
/// and the joint is made without the call that would set it.
public struct JointSettings: Sendable, Equatable {
    /// The most force the joint applies (`cpConstraintSetMaxForce`; default unlimited).
    public var maxForce: Double?
    /// The fastest it corrects its error, px/s or rad/s (`cpConstraintSetMaxBias`; default unlimited).
    public var maxBias: Double?
    /// The share of its error left after a second (`cpConstraintSetErrorBias`; default 0.9^60).
    public var errorBias: Double?
    /// Whether the two bodies still collide with each other (`cpConstraintSetCollideBodies`).
    public var collideBodies: Bool
    /// The joint breaks (is removed at the step's end) when the impulse it applied in a step is
    /// more than this (mass · px/s; `cpConstraintGetImpulse`); nil: never by impulse.
    public var breakImpulse: Double?
    /// The joint breaks when its impulse in a step divided by the step's length (the mean force
    /// it applied) is more than this; nil: never by force.
    public var breakForce: Double?

    public init(maxForce: Double? = nil, maxBias: Double? = nil, errorBias: Double? = nil, collideBodies: Bool = true,
                breakImpulse: Double? = nil, breakForce: Double? = nil) {
        self.maxForce = maxForce
        self.maxBias = maxBias
        self.errorBias = errorBias
        self.collideBodies = collideBodies
        self.breakImpulse = breakImpulse
        self.breakForce = breakForce
    }

    /// Whether the joint can break.
    public var breaks: Bool { breakImpulse != nil || breakForce != nil }

    /// Whether `impulse`, applied in one step of `stepRate` steps a second, breaks the joint.
    public func breaks(impulse: Double, stepRate: Int) -> Bool {
        if let breakImpulse, abs(impulse) > breakImpulse { return true }
        if let breakForce, abs(impulse) * Double(stepRate) > breakForce { return true }
        return false
    }

    public static let standard = JointSettings()
}

/// A joint between two bodies of a scene (or one body and the static world). Joints are made
/// after every body, in file order (docs/scenes.md, "Construction order").
public struct JointSpec: Sendable, Equatable {
    public var kind: JointKind
    public var a: JointEnd
    public var b: JointEnd
    public var settings: JointSettings

    public init(_ kind: JointKind, a: JointEnd, b: JointEnd, settings: JointSettings = .standard) {
        self.kind = kind
        self.a = a
        self.b = b
        self.settings = settings
    }
}

extension JointSpec {
    /// What a world's fingerprint hashes of a joint: a marker, its kind, both ends (−1 for the
    /// static body), its parameters and settings (unset ones as Chipmunk's defaults would be
    /// hashed: infinity, NaN for the error bias's default, which no valid value is).
    public var fingerprintValues: [Double] {
        let s = settings
        return [ShapeFingerprint.jointMarker, Double(kind.number), Double(a.crateIndex ?? -1), Double(b.crateIndex ?? -1)]
            + kind.parameters + [s.maxForce ?? .infinity, s.maxBias ?? .infinity, s.errorBias ?? .nan, s.collideBodies ? 1 : 0]
            // Breaking thresholds came later: hashed only when set, so earlier fingerprints hold.
            + (s.breaks ? [ShapeFingerprint.breakMarker, s.breakImpulse ?? .infinity, s.breakForce ?? .infinity] : [])
    }
}
