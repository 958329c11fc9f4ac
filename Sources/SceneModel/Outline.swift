/// The limits of a concave outline (`"shape": "outline"`): any simple polygon, which Chipmunk's
/// `cpPolylineConvexDecomposition` turns into convex parts (Physics' `OutlineDecomposer`).
public enum OutlineLimits {
    /// Vertices of an outline. Chipmunk's decomposition recurses once per cut with two scratch
    /// copies of the piece on the stack (`alloca`), about 32·n² bytes at worst: 64 vertices stay
    /// near 130 KiB, well inside the 512 KiB of a Swift task's thread; enough for a letter.
    public static let vertices = 3...64
    /// How deep a notch may be and still be filled in by the convex hull of its piece (px):
    /// Chipmunk's `tol`.
    public static let tolerance = 0.0...1e3
    /// How deep Chipmunk's decomposition may recurse, in cuts one inside another. Each level keeps
    /// two copies of its piece on the stack (at most 65 points each: about 2 KiB), so 72 levels stay
    /// near 150 KiB; an outline of 64 vertices has at most 62 notches to cut. Deeper is a
    /// decomposition that does not end (autogeometry.h, `CChipmunk_OutlineDryRun`).
    public static let cutDepth = 72
    /// The tolerance of an outline that gives none: a tenth of a pixel, Chipmunk's collision slop
    /// (the overlap it already lets contacts keep), so the parts cover the outline as drawn while a
    /// vertex a rounding error off a straight side makes no sliver part.
    public static let defaultTolerance = 0.1
}

/// The checks an outline's vertices must pass before Chipmunk sees them: a count within
/// `OutlineLimits.vertices`, finite coordinates within `magnitude`, no vertex repeating its
/// neighbour, a turn at every corner, no two sides that cross or touch (a simple polygon), and an
/// area of at least `Limits.polygonArea`. Either winding.
public enum OutlineCheck {
    /// Problems with `vertices`, named `field[i]` (or `field` for the whole).
    public static func problems(_ vertices: [Vec2], field: String, magnitude: Double) -> [FieldProblem] {
        var list = ProblemList()
        guard OutlineLimits.vertices.contains(vertices.count) else {
            list.add(field, "an outline needs \(OutlineLimits.vertices.lowerBound)...\(OutlineLimits.vertices.upperBound) "
                + "vertices, got \(vertices.count)")
            return list.problems
        }
        for (i, vertex) in vertices.enumerated() { list.check("\(field)[\(i)]", vertex, magnitude: magnitude) }
        guard list.problems.isEmpty else { return list.problems }
        let n = vertices.count
        for i in 0..<n where vertices[i] == vertices[(i + 1) % n] {
            list.add("\(field)[\((i + 1) % n)]", "repeats vertex \(i): an outline's neighbouring vertices must differ")
            return list.problems
        }
        for i in 0..<n {
            let a = vertices[i], b = vertices[(i + 1) % n], c = vertices[(i + 2) % n]
            let e1 = b - a, e2 = c - b
            let cross = e1.x * e2.y - e1.y * e2.x
            if abs(cross) <= 1e-9 * e1.length * e2.length {
                list.add("\(field)[\((i + 1) % n)]", "lies on the line through its neighbours (vertices \(i) and \((i + 2) % n)): "
                    + "an outline's vertices must turn at every corner")
                return list.problems
            }
        }
        // Sides that are not neighbours must not meet: a simple polygon. n is at most 64, so every
        // pair is tried (2,016 at most).
        for i in 0..<n {
            for j in (i + 2)..<max(i + 2, n) where !(i == 0 && j == n - 1) {
                if segmentsMeet(vertices[i], vertices[(i + 1) % n], vertices[j], vertices[(j + 1) % n]) {
                    list.add("\(field)[\(j)]", "the outline crosses itself: the side from vertex \(i) to \((i + 1) % n) meets the side "
                        + "from vertex \(j) to \((j + 1) % n); give the vertices in order around a simple polygon (no holes: "
                        + "cut a channel to an inner outline)")
                    return list.problems
                }
            }
        }
        let area = abs(ConvexPolygonCheck.signedArea(vertices))
        if area < Limits.polygonArea {
            list.add(field, "the outline's area is \(show(area)) px²; at least \(show(Limits.polygonArea))")
        }
        return list.problems
    }

    /// The outline as Chipmunk's decomposition is given it: counter-clockwise (reversed when its
    /// signed area is negative) and starting at its vertex of least x (least y among equals).
    /// Chipmunk places its cuts by vertex index, so the first vertex changes the parts' last
    /// bits; starting from this one, an outline written from any vertex, either way round, gives
    /// the same parts.
    public static func canonical(_ vertices: [Vec2]) -> [Vec2] {
        let ccw = ConvexPolygonCheck.signedArea(vertices) >= 0 ? vertices : Array(vertices.reversed())
        guard var first = ccw.indices.first else { return ccw }
        for i in ccw.indices where ccw[i].x < ccw[first].x || (ccw[i].x == ccw[first].x && ccw[i].y < ccw[first].y) { first = i }
        return Array(ccw[first...] + ccw[..<first])
    }

    /// `piece` without the vertices that lie on the line through their neighbours by
    /// `ConvexPolygonCheck`'s measure (|cross| ≤ 10⁻⁹ of the sides' lengths' product), each
    /// removal in turn from the first vertex until none is left: Chipmunk's cut ends carry the
    /// rounding of their computation, and a cut's end off a straight side by 10⁻¹⁴ px is a
    /// corner to its hull but none to a polygon's check.
    public static func withoutStraightCorners(_ piece: [Vec2]) -> [Vec2] {
        var points = piece
        var i = 0
        while points.count > 3, i < points.count {
            let n = points.count
            let a = points[(i + n - 1) % n], b = points[i], c = points[(i + 1) % n]
            let e1 = b - a, e2 = c - b
            if abs(e1.x * e2.y - e1.y * e2.x) <= 1e-9 * e1.length * e2.length {
                points.remove(at: i)
                i = 0
            } else {
                i += 1
            }
        }
        return points
    }

    /// Whether the closed segments pq and rs have a point in common.
    static func segmentsMeet(_ p: Vec2, _ q: Vec2, _ r: Vec2, _ s: Vec2) -> Bool {
        func orientation(_ a: Vec2, _ b: Vec2, _ c: Vec2) -> Double {
            let cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            return cross > 0 ? 1 : (cross < 0 ? -1 : 0)
        }
        func within(_ a: Vec2, _ b: Vec2, _ c: Vec2) -> Bool {
            min(a.x, b.x) <= c.x && c.x <= max(a.x, b.x) && min(a.y, b.y) <= c.y && c.y <= max(a.y, b.y)
        }
        let o1 = orientation(p, q, r), o2 = orientation(p, q, s), o3 = orientation(r, s, p), o4 = orientation(r, s, q)
        if o1 * o2 < 0, o3 * o4 < 0 { return true }
        return (o1 == 0 && within(p, q, r)) || (o2 == 0 && within(p, q, s)) || (o3 == 0 && within(r, s, p))
            || (o4 == 0 && within(r, s, q))
    }
}

extension BodyPart {
    /// The parts an outline part becomes: one polygon part per convex piece (`pieces`, in the
    /// outline part's own frame, as the decomposition gives them), each with this part's offset,
    /// angle, surface, collision settings and colour, and the share of its mass that its area
    /// is of all the pieces' (`mass × area_k / total`, areas by the shoelace formula, the total
    /// summed in piece order).
    /// - Precondition: every piece passes `ConvexPolygonCheck`.
    public func outlinePieces(_ pieces: [[Vec2]]) -> [BodyPart] {
        let areas = pieces.map { abs(ConvexPolygonCheck.signedArea($0)) }
        let total = areas.reduce(0) { $0 + $1 }
        precondition(total > 0, "outline pieces without area")
        return pieces.indices.map { k in
            var part = self
            part.shape = .polygon(vertices: pieces[k], radius: 0)
            part.mass = mass * areas[k] / total
            return part
        }
    }
}

/// A `walls` entry written as an outline and the convex polygon walls it became. For `validate
/// --explain`.
public struct WallOutlineOrigin: Sendable, Equatable {
    /// The entry's index in the file's `walls`.
    public var entry: Int
    /// Its walls' indices in `Scene.walls`, in decomposition order.
    public var walls: Range<Int>

    public init(entry: Int, walls: Range<Int>) {
        self.entry = entry
        self.walls = walls
    }
}

/// Where the parts of a body with outlines came from, for messages and `validate --explain`: for
/// each part in the body's list, the `shapes` entry it was written as, and whether it is a piece
/// of an outline.
public struct PartOrigins: Sendable, Equatable {
    /// Per part: the index in `shapes` of the entry it came from (0 for a crate written as one outline).
    public var written: [Int]
    /// Per part: whether it is a convex piece of an outline.
    public var fromOutline: [Bool]
    /// Whether the crate was written as one outline (`"shape": "outline"`), with no `shapes`.
    public var wholeOutline: Bool

    public init(written: [Int], fromOutline: [Bool], wholeOutline: Bool) {
        self.written = written
        self.fromOutline = fromOutline
        self.wholeOutline = wholeOutline
    }

    /// Part `k`'s name in messages: `shapes[2]`, `shapes[2] (outline part 1)` or, for a crate
    /// written as an outline, `vertices (outline part 1)`; an outline's parts are numbered from 0
    /// in the decomposition's order.
    public func name(_ k: Int) -> String {
        let piece = k - (written.firstIndex { $0 == written[k] } ?? k)
        if wholeOutline { return "vertices (outline part \(piece))" }
        return fromOutline[k] ? "shapes[\(written[k])] (outline part \(piece))" : "shapes[\(written[k])]"
    }
}

extension OutlineLimits {
    /// Problems with an outline's `tolerance` (px): within `tolerance`.
    public static func toleranceProblems(_ tolerance: Double) -> [FieldProblem] {
        var list = ProblemList()
        list.check("tolerance", tolerance, in: Self.tolerance)
        return list.problems
    }

    /// Problems with the `mass` of a crate written as one outline: as any dynamic body's, within
    /// `Limits.mass` (its parts share it by area).
    public static func massProblems(_ mass: Double) -> [FieldProblem] {
        var list = ProblemList()
        list.check("mass", mass, in: Limits.mass)
        return list.problems
    }
}
