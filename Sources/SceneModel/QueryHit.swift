/// A shape near a point (`World.query(point:within:)`): the nearest point of its surface, the
/// distance to it (negative inside the shape) and the gradient (the direction away from the shape).
public struct PointQueryHit: Sendable, Equatable {
    public var party: ContactParty
    public var point: Vec2
    public var distance: Double
    public var gradient: Vec2
    /// Which part of a compound body the hit is on (its index in `shapes`); nil for a wall or a
    /// body of one shape.
    public var part: Int?

    public init(party: ContactParty, point: Vec2, distance: Double, gradient: Vec2, part: Int? = nil) {
        self.part = part
        self.party = party
        self.point = point
        self.distance = distance
        self.gradient = gradient
    }
}

/// A shape a segment (a ray, thickened by a radius) meets: where, the surface normal there, and
/// `alpha`, how far along the segment (0 at its start, 1 at its end).
public struct SegmentQueryHit: Sendable, Equatable {
    public var party: ContactParty
    public var point: Vec2
    public var normal: Vec2
    public var alpha: Double
    /// Which part of a compound body the hit is on (its index in `shapes`); nil for a wall or a
    /// body of one shape.
    public var part: Int?

    public init(party: ContactParty, point: Vec2, normal: Vec2, alpha: Double, part: Int? = nil) {
        self.part = part
        self.party = party
        self.point = point
        self.normal = normal
        self.alpha = alpha
    }
}
