/// What a drawing needs of a joint, given once beside the snapshots (which carry state only):
/// the bodies it joins and its anchors in their frames, from which each frame places it.
public struct JointLink: Sendable, Equatable {
    public var kind: JointKind.Name
    /// The bodies joined; nil for the static body (whose frame is the world's).
    public var a: BodyID?
    public var anchorA: Vec2
    public var b: BodyID?
    public var anchorB: Vec2
    /// A groove joint's groove, in A's frame.
    public var grooveA: Vec2?
    public var grooveB: Vec2?
    /// False for the rotary kinds (gear, motor, ...), whose anchors are the bodies' centres: they
    /// are drawn between two bodies' centres, and not at all to the static body.
    public var hasAnchors: Bool

    public init(kind: JointKind.Name, a: BodyID?, anchorA: Vec2, b: BodyID?, anchorB: Vec2, grooveA: Vec2? = nil, grooveB: Vec2? = nil,
                hasAnchors: Bool = true) {
        self.kind = kind
        self.a = a
        self.anchorA = anchorA
        self.b = b
        self.anchorB = anchorB
        self.grooveA = grooveA
        self.grooveB = grooveB
        self.hasAnchors = hasAnchors
    }

    /// Whether anything of it is drawn.
    public var isDrawn: Bool { hasAnchors || (a != nil && b != nil) }

    /// Where a point in a body's frame is, with the body at `state` (nil: the static body).
    public static func place(_ point: Vec2, on state: BodyState?) -> Vec2 {
        guard let state else { return point }
        let c = cos(state.angle), s = sin(state.angle)
        return Vec2(state.position.x + c * point.x - s * point.y, state.position.y + s * point.x + c * point.y)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif
