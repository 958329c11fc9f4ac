import SceneModel

/// Why an outline cannot become parts. Each problem is named by the outline's key (`vertices`,
/// `vertices[3]`), as the scene file's messages name it.
public enum OutlineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The vertices fail `OutlineCheck` (too few or many, not finite, self-crossing, no area...).
    case invalid([FieldProblem])
    /// The decomposition gives more convex parts than allowed.
    case tooManyParts(count: Int, limit: Int)
    /// Piece `index` of the decomposition is no polygon Chipmunk may take (more than
    /// `Limits.polygonVertices` corners, a straight corner or too little area).
    case unfitPart(index: Int, problems: [FieldProblem])
    /// Chipmunk's decomposition would not end, or not cover the outline: a cut from the notch at
    /// `at` has length 0 (it runs exactly through a vertex that is the next notch) or meets no
    /// side, or the cuts go deeper than `OutlineLimits.cutDepth` (`at` is nil then). Found by a dry
    /// run of the same arithmetic before Chipmunk is called.
    case undecomposable(at: Vec2?, reason: String)

    /// The problems, named by the outline's keys.
    public var problems: [FieldProblem] {
        switch self {
        case let .invalid(problems): problems
        case let .tooManyParts(count, limit):
            [FieldProblem("vertices", "the outline decomposes into \(count) convex parts; a body takes at most \(limit) "
                + "(raise tolerance, or use fewer notches)")]
        case let .unfitPart(index, problems):
            [FieldProblem("vertices", "the outline's convex part \(index) is no polygon Chipmunk may take: "
                + problems.map { $0.description }.joined(separator: "; ") + " (move vertices or change tolerance)")]
        case let .undecomposable(_, reason):
            [FieldProblem("vertices", "Chipmunk's convex decomposition cannot take this outline: " + reason
                + " (move a vertex there a little, or change tolerance)")]
        }
    }

    public var description: String { problems.map { $0.description }.joined(separator: "; ") }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Concave outlines into convex parts with Chipmunk's autogeometry (`cpPolylineConvexDecomposition`,
/// as pymunk's `autogeometry.convex_decomposition` wraps it): the outline taken counter-clockwise
/// from its vertex of least x (`OutlineCheck.canonical`), cut at its deepest notch from the notch's vertex straight
/// into the outline, and each side cut again until every piece is convex or its notches are no
/// deeper than the tolerance (then the piece is its convex hull). Pieces come depth first: of a
/// cut, first the side from the notch's vertex forward (counter-clockwise) to the cut's far end,
/// then the other; each piece counter-clockwise from its point of least x (least y among equals),
/// less any vertex the rounding of a cut left on a straight side (`OutlineCheck.withoutStraightCorners`).
/// Only +, −, ×, ÷, `sqrt` and comparisons touch the coordinates, in Chipmunk's order, so the same
/// outline gives the same parts on every CPU whose Chipmunk is built without fused multiply-add
/// (the portable backend's `-ffp-contract=off`).
public enum OutlineDecomposer {
    /// The most pieces a dry run counts before it stops (an outline of 64 vertices gives at most 63).
    static let mostPieces = 10_000

    /// The convex pieces of `vertices`, in Chipmunk's order.
    /// - Parameters:
    ///   - vertices: a simple polygon, either winding, in any frame (pixels).
    ///   - tolerance: the deepest notch a piece may keep filled in (px), within `OutlineLimits.tolerance`.
    ///   - magnitude: how far from the origin a vertex may lie (`Limits.size.upperBound` for a
    ///     body's frame, `Limits.coordinate` for walls).
    ///   - maxParts: how many pieces are allowed (`Limits.compoundParts.upperBound` for a body).
    /// - Returns: the pieces, each a convex polygon (counter-clockwise, no straight corner, at most
    ///   `Limits.polygonVertices` vertices, area at least `Limits.polygonArea`).
    /// - Throws: `OutlineError`, before Chipmunk sees an outline it would assert on.
    public static func pieces(of vertices: [Vec2], tolerance: Double, magnitude: Double = Limits.size.upperBound,
                              maxParts: Int = Limits.compoundParts.upperBound) throws(OutlineError) -> [[Vec2]] {
        let problems = OutlineCheck.problems(vertices, field: "vertices", magnitude: magnitude)
            + OutlineLimits.toleranceProblems(tolerance)
        guard problems.isEmpty else { throw .invalid(problems) }
        let found: [[Vec2]]
        switch OutlineDecomposition.pieces(OutlineCheck.canonical(vertices), tolerance: tolerance, maxPieces: Self.mostPieces) {
        case let .success(pieces): found = pieces
        case .failure(.tooDeep):
            throw .undecomposable(at: nil, reason: "its cuts go more than \(OutlineLimits.cutDepth) deep, one inside another")
        case let .failure(.zeroLengthCut(vertex)):
            throw .undecomposable(at: vertex, reason: "the cut from the notch at \(Self.show(vertex)) has length 0 (a cut before it ran "
                + "exactly through that vertex), so it would cut a piece into itself forever")
        case let .failure(.noCut(vertex)):
            throw .undecomposable(at: vertex, reason: "the cut from the notch at \(Self.show(vertex)) meets no side")
        case .failure(.tooManyPieces):
            throw .tooManyParts(count: Self.mostPieces + 1, limit: maxParts)
        }
        let pieces = found.map { OutlineCheck.withoutStraightCorners($0) }
        guard pieces.count <= maxParts else { throw .tooManyParts(count: pieces.count, limit: maxParts) }
        for (index, piece) in pieces.enumerated() {
            let problems = ConvexPolygonCheck.problems(piece, field: "vertices", magnitude: magnitude)
            guard problems.isEmpty else { throw .unfitPart(index: index, problems: problems) }
        }
        return pieces
    }

    private static func show(_ point: Vec2) -> String { "[\(OutlineError.number(point.x)), \(OutlineError.number(point.y))]" }

    /// The parts an outline part becomes (`BodyPart.outlinePieces`): `part`'s offset, angle,
    /// surface, collision settings and colour on each piece of `vertices`, its mass shared by area.
    /// - Parameters:
    ///   - vertices: a simple polygon, either winding, in the part's frame (pixels).
    ///   - tolerance: the deepest notch a piece may keep filled in (px).
    ///   - part: the outline's part; its `shape` is ignored.
    ///   - maxParts: how many pieces are allowed.
    /// - Returns: one polygon part per piece, in Chipmunk's order.
    /// - Throws: `OutlineError`, as `pieces(of:tolerance:magnitude:maxParts:)`.
    public static func parts(of vertices: [Vec2], tolerance: Double = OutlineLimits.defaultTolerance, like part: BodyPart,
                             maxParts: Int = Limits.compoundParts.upperBound) throws(OutlineError) -> [BodyPart] {
        part.outlinePieces(try pieces(of: vertices, tolerance: tolerance, maxParts: maxParts))
    }
}
