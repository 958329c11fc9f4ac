#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif

/// A convex shape as Chipmunk sees every shape: a convex core (one point for a disc, two for a
/// segment, three or more in order for a polygon) grown by `radius`. Every body and wall shape
/// gives one (`BodyShape.outline`, `WallGeometry.outline`), so overlap tests are written once.
public struct ConvexOutline: Sendable, Equatable {
    public var points: [Vec2]
    public var radius: Double

    public init(points: [Vec2], radius: Double) {
        self.points = points
        self.radius = radius
    }

    /// The outline turned by `angle` (radians, counter-clockwise) and moved to `position`.
    public func placed(at position: Vec2, angle: Double) -> ConvexOutline {
        let c = cos(angle), s = sin(angle)
        return ConvexOutline(points: points.map { Vec2(position.x + $0.x * c - $0.y * s, position.y + $0.x * s + $0.y * c) },
                             radius: radius)
    }

    /// The smallest axis-aligned rectangle around the outline, radius included.
    public var bounds: (min: Vec2, max: Vec2) {
        var low = Vec2(Double.infinity, Double.infinity), high = Vec2(-Double.infinity, -Double.infinity)
        for p in points {
            low = Vec2(Swift.min(low.x, p.x), Swift.min(low.y, p.y))
            high = Vec2(Swift.max(high.x, p.x), Swift.max(high.y, p.y))
        }
        return (low - Vec2(radius, radius), high + Vec2(radius, radius))
    }

    /// The gap between two outlines: the distance between their surfaces when apart, 0 when they
    /// touch, and minus how deep they overlap (the least push that parts their cores along a
    /// side's normal, plus both radii) when they share area.
    public func separation(_ other: ConvexOutline) -> Double {
        coreSeparation(other) - radius - other.radius
    }

    /// The distance between the two cores when apart; minus their overlap when they meet.
    public func coreSeparation(_ other: ConvexOutline) -> Double {
        let distance = coreDistance(other)
        return distance > 0 ? distance : -coreOverlap(other)
    }

    /// The distance between the cores: 0 when they meet. Two convex sets that do not meet are
    /// closest at a point of one's boundary and an edge (or point) of the other.
    public func coreDistance(_ other: ConvexOutline) -> Double {
        if coresMeet(other) { return 0 }
        var best = Double.infinity
        for p in points { best = Swift.min(best, other.boundaryDistance(to: p)) }
        for p in other.points { best = Swift.min(best, boundaryDistance(to: p)) }
        return best
    }

    /// Whether the cores share a point: an edge of one crosses an edge of the other, or one lies
    /// inside the other.
    func coresMeet(_ other: ConvexOutline) -> Bool {
        for i in 0..<edgeCount {
            let (a, b) = edge(i)
            for j in 0..<other.edgeCount {
                let (c, d) = other.edge(j)
                if Self.segmentsMeet(a, b, c, d) { return true }
            }
        }
        return contains(other.points[0]) || other.contains(points[0])
    }

    /// How far the cores overlap: the least push along a side's normal of either core that parts
    /// them (exact for convex polygons; for two parallel segments, the overlap across them).
    func coreOverlap(_ other: ConvexOutline) -> Double {
        let least = Swift.min(leastOverlap(other, alongSidesOf: self), leastOverlap(other, alongSidesOf: other))
        return least.isFinite ? least : 0
    }

    /// The least overlap of the two cores' projections on the normals of `outline`'s sides.
    private func leastOverlap(_ other: ConvexOutline, alongSidesOf outline: ConvexOutline) -> Double {
        var least = Double.infinity
        for i in 0..<outline.edgeCount {
            guard let axis = outline.normal(i) else { continue }
            let (lowA, highA) = project(on: axis), (lowB, highB) = other.project(on: axis)
            least = Swift.min(least, Swift.max(0, Swift.min(highA - lowB, highB - lowA)))
        }
        return least
    }

    /// Whether the two outlines overlap by more than `depth` (`separation(other) < -depth`). Two
    /// polygons whose radii add up to less than `depth` overlap that deep only where their cores
    /// do, which the projections on their sides tell without the test of where the cores are apart.
    public func overlaps(_ other: ConvexOutline, deeperThan depth: Double) -> Bool {
        let radii = radius + other.radius
        if points.count >= 3, other.points.count >= 3, radii < depth {
            // Every side's projections must overlap by more: the first that does not decides.
            return projectionsOverlap(other, alongSidesOf: self, byMoreThan: depth - radii)
                && projectionsOverlap(other, alongSidesOf: other, byMoreThan: depth - radii)
        }
        return separation(other) < -depth
    }

    private func projectionsOverlap(_ other: ConvexOutline, alongSidesOf outline: ConvexOutline, byMoreThan least: Double) -> Bool {
        for i in 0..<outline.edgeCount {
            guard let axis = outline.normal(i) else { continue }
            let (lowA, highA) = project(on: axis), (lowB, highB) = other.project(on: axis)
            if Swift.min(highA - lowB, highB - lowA) <= least { return false }
        }
        return true
    }

    /// The core's edges, each once: a point's is itself, a segment's is one edge.
    var edgeCount: Int { points.count < 3 ? 1 : points.count }

    func edge(_ i: Int) -> (Vec2, Vec2) {
        points.count < 3 ? (points[0], points[points.count - 1]) : (points[i], points[(i + 1) % points.count])
    }

    /// The unit normal of edge `i`; nil for a point.
    func normal(_ i: Int) -> Vec2? {
        let (a, b) = edge(i)
        let d = b - a, length = d.length
        return length > 0 ? Vec2(-d.y / length, d.x / length) : nil
    }

    func project(on axis: Vec2) -> (Double, Double) {
        var low = Double.infinity, high = -Double.infinity
        for p in points {
            let t = p.x * axis.x + p.y * axis.y
            low = Swift.min(low, t)
            high = Swift.max(high, t)
        }
        return (low, high)
    }

    /// Whether `point` lies in the core (a polygon's area; on a point or segment itself).
    func contains(_ point: Vec2) -> Bool {
        if points.count < 3 { return boundaryDistance(to: point) == 0 }
        var sign = 0.0
        for i in 0..<edgeCount {
            let (a, b) = edge(i)
            let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return true
    }

    /// The distance from `point` to the core's boundary (its edges).
    func boundaryDistance(to point: Vec2) -> Double {
        var best = Double.infinity
        for i in 0..<edgeCount {
            let (a, b) = edge(i)
            best = Swift.min(best, Self.distance(from: point, toSegment: a, b))
        }
        return best
    }

    /// The distance from `point` to the segment a-b.
    public static func distance(from point: Vec2, toSegment a: Vec2, _ b: Vec2) -> Double {
        let d = b - a, lengthSquared = d.x * d.x + d.y * d.y
        let t = lengthSquared == 0 ? 0 : Swift.max(0, Swift.min(1, ((point.x - a.x) * d.x + (point.y - a.y) * d.y) / lengthSquared))
        return (point - (a + d * t)).length
    }

    /// Whether the closed segments a-b and c-d share a point.
    static func segmentsMeet(_ a: Vec2, _ b: Vec2, _ c: Vec2, _ d: Vec2) -> Bool {
        func cross(_ o: Vec2, _ p: Vec2, _ q: Vec2) -> Double { (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x) }
        let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        // Touching or collinear: an endpoint lies on the other segment.
        return distance(from: a, toSegment: c, d) == 0 || distance(from: b, toSegment: c, d) == 0
            || distance(from: c, toSegment: a, b) == 0 || distance(from: d, toSegment: a, b) == 0
    }
}
