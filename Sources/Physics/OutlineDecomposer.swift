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
        }
    }

    public var description: String { problems.map { $0.description }.joined(separator: "; ") }
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
        let pieces = OutlineDecomposition.pieces(OutlineCheck.canonical(vertices), tolerance: tolerance)
            .map { OutlineCheck.withoutStraightCorners($0) }
        guard pieces.count <= maxParts else { throw .tooManyParts(count: pieces.count, limit: maxParts) }
        for (index, piece) in pieces.enumerated() {
            let problems = ConvexPolygonCheck.problems(piece, field: "vertices", magnitude: magnitude)
            guard problems.isEmpty else { throw .unfitPart(index: index, problems: problems) }
        }
        return pieces
    }

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
