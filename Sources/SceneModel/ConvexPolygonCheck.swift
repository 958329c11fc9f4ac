#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif

/// The checks a polygon's vertices must pass, for bodies and walls alike: a count within
/// `Limits.polygonVertices`, finite coordinates within `magnitude`, and a convex, simple polygon
/// with no repeated or collinear vertices and an area of at least `Limits.polygonArea`.
public enum ConvexPolygonCheck {
    public static func problems(_ vertices: [Vec2], field: String, magnitude: Double) -> [FieldProblem] {
        var list = ProblemList()
        guard Limits.polygonVertices.contains(vertices.count) else {
            list.add(field, "a polygon needs \(Limits.polygonVertices.lowerBound)...\(Limits.polygonVertices.upperBound) "
                + "vertices, got \(vertices.count)")
            return list.problems
        }
        for (i, vertex) in vertices.enumerated() { list.check("\(field)[\(i)]", vertex, magnitude: magnitude) }
        guard list.problems.isEmpty else { return list.problems }
        let n = vertices.count
        for i in 0..<n where vertices[i] == vertices[(i + 1) % n] {
            list.add("\(field)[\((i + 1) % n)]", "repeats vertex \(i): a polygon's vertices must differ")
            return list.problems
        }
        // Every turn the same way round, none straight, and once round in all: convex and simple.
        var turnSign = 0.0, turning = 0.0
        for i in 0..<n {
            let a = vertices[i], b = vertices[(i + 1) % n], c = vertices[(i + 2) % n]
            let e1 = b - a, e2 = c - b
            let cross = e1.x * e2.y - e1.y * e2.x, dot = e1.x * e2.x + e1.y * e2.y
            if abs(cross) <= 1e-9 * e1.length * e2.length {
                list.add("\(field)[\((i + 1) % n)]", "lies on the line through its neighbours (vertices \(i) and \((i + 2) % n)): "
                    + "a polygon's vertices must turn at every corner")
                return list.problems
            }
            if turnSign == 0 { turnSign = cross }
            if (turnSign > 0) != (cross > 0) {
                list.add("\(field)[\((i + 1) % n)]", "makes the polygon concave: every corner must turn the same way; "
                    + "split a concave shape into convex polygons (walls), or use its convex hull")
                return list.problems
            }
            turning += atan2(cross, dot)
        }
        if abs(turning) > 3 * Double.pi {
            list.add(field, "the polygon crosses itself (its sides go round \(Int((abs(turning) / (2 * Double.pi)).rounded())) times): "
                + "give the vertices in order around it")
            return list.problems
        }
        let area = abs(signedArea(vertices))
        if area < Limits.polygonArea {
            list.add(field, "the polygon's area is \(show(area)) px²; at least \(show(Limits.polygonArea))")
        }
        return list.problems
    }

    /// The signed area (positive counter-clockwise), by the shoelace formula.
    public static func signedArea(_ vertices: [Vec2]) -> Double {
        var sum = 0.0
        for i in vertices.indices {
            let a = vertices[i], b = vertices[(i + 1) % vertices.count]
            sum += a.x * b.y - a.y * b.x
        }
        return sum / 2
    }

    /// The centroid of the polygon's area; nil for no area.
    public static func centroid(_ vertices: [Vec2]) -> Vec2? {
        var sum = Vec2.zero, twiceArea = 0.0
        for i in vertices.indices {
            let a = vertices[i], b = vertices[(i + 1) % vertices.count]
            let cross = a.x * b.y - a.y * b.x
            twiceArea += cross
            sum = sum + (a + b) * cross
        }
        return twiceArea == 0 ? nil : sum * (1 / (3 * twiceArea))
    }
}
