/// What a body's or wall's shape does to the contacts it is in, beyond pushing: the rules of
/// contact (`one_way`, `surface_velocity` in scene files). Data, not code: the physics applies them
/// in one place, the collision handler that also notes contact events (docs/architecture.md,
/// "Rules of contact").
public struct ContactRules: Sendable, Hashable {
    /// A one-way shape (Chipmunk's one-way platform): a contact whose normal, taken from this shape
    /// to the other, points against this direction is ignored until the two part. In world
    /// coordinates, whatever the body's angle; its length does not matter (but must not be 0).
    /// `[0, 1]`: bodies rest on its top and pass up through it from below.
    public var oneWay: Vec2?
    /// The velocity of the shape's surface in px/s, world coordinates (`cpShapeSetSurfaceVelocity`):
    /// a conveyor. Chipmunk uses it for friction only.
    public var surfaceVelocity: Vec2?

    public init(oneWay: Vec2? = nil, surfaceVelocity: Vec2? = nil) {
        self.oneWay = oneWay
        self.surfaceVelocity = surfaceVelocity
    }

    /// No rules: what every shape had before rules existed.
    public static let none = ContactRules()

    /// Problems with the rules' values, named by their scene keys.
    public func problems() -> [FieldProblem] {
        var problems: [FieldProblem] = []
        if let oneWay {
            if !(oneWay.x.isFinite && oneWay.y.isFinite) {
                problems.append(FieldProblem("one_way", "must be a direction of finite numbers, got [\(oneWay.x), \(oneWay.y)]"))
            } else if oneWay.x == 0 && oneWay.y == 0 {
                problems.append(FieldProblem("one_way", "must be a direction of length > 0 (the side bodies rest on), got [0, 0]"))
            } else if max(abs(oneWay.x), abs(oneWay.y)) > Limits.oneWayComponent {
                problems.append(FieldProblem("one_way", "each part must be within ±\(Int(Limits.oneWayComponent)), got [\(oneWay.x), \(oneWay.y)]"))
            }
        }
        if let surfaceVelocity {
            for (index, value) in [surfaceVelocity.x, surfaceVelocity.y].enumerated() where !(value.isFinite && abs(value) <= Limits.speed) {
                problems.append(FieldProblem("surface_velocity[\(index)]", "must be a finite number within ±\(Int(Limits.speed)) px/s, got \(value)"))
            }
        }
        return problems
    }

    /// What a world's fingerprint hashes of them: nothing without rules (so earlier fingerprints
    /// still match), else a marker and the values (NaN-free: 0 and a flag for an absent one).
    public var fingerprintValues: [Double] {
        guard self != .none else { return [] }
        return [ShapeFingerprint.rulesMarker, oneWay == nil ? 0 : 1, oneWay?.x ?? 0, oneWay?.y ?? 0,
                surfaceVelocity == nil ? 0 : 1, surfaceVelocity?.x ?? 0, surfaceVelocity?.y ?? 0]
    }
}
