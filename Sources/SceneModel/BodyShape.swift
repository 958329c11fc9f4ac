#if canImport(Glibc)
import Glibc
#endif

/// The collision shape of a dynamic body, in the body's own frame (centred on its centre of
/// mass). Units: pixels.
///
/// A new kind adds a case here; every place that knows shapes switches over this enum, so the
/// compiler lists the Swift ones. The full list, C included, is in docs/architecture.md ("Adding
/// a body shape").
public enum BodyShape: Sendable, Hashable, Codable {
    /// An axis-aligned rectangle in the body frame: `size` is its width and height.
    case box(size: Vec2)
    /// A disc of `radius` around the centre of mass.
    case circle(radius: Double)

    /// The shape kinds, by the names scene files and traces write.
    public enum Kind: String, Sendable, CaseIterable {
        case box, circle
    }

    public var kind: Kind {
        switch self {
        case .box: .box
        case .circle: .circle
        }
    }

    /// Width and height of the smallest body-frame rectangle around the shape.
    public var boundingSize: Vec2 {
        switch self {
        case let .box(size): size
        case let .circle(radius): Vec2(2 * radius, 2 * radius)
        }
    }

    /// Half the width and height of the smallest world-axis rectangle around the shape turned by
    /// `angle` (radians): its bounding box's half extents.
    public func halfExtents(angle: Double) -> Vec2 {
        switch self {
        case let .box(size):
            let c = abs(cos(angle)), s = abs(sin(angle))
            return Vec2(c * size.x / 2 + s * size.y / 2, s * size.x / 2 + c * size.y / 2)
        case let .circle(radius):
            return Vec2(radius, radius)
        }
    }
}
