import Physics
import SceneModel

/// Concave outlines (`"shape": "outline"`) on crates, parts and walls: read, checked, and made into
/// convex polygon parts or walls by Chipmunk's decomposition (`OutlineDecomposer`) as the scene is
/// read, so every later layer (the world, saved states, records, the C harnesses) sees only
/// polygons. Every problem is named by the outline's own keys.
extension SceneDecoder {
    /// Whether `fields` is written `"shape": "outline"` (the key is not marked read).
    func writesOutline(_ fields: Fields) -> Bool {
        guard let value = fields.members.first(where: { $0.key == "shape" })?.value, case let .string(text) = value.kind else { return false }
        return text == "outline"
    }

    /// An outline's `vertices` and `tolerance` (and its `shape`), decomposed; nil, with the
    /// problems reported, when they cannot be.
    private mutating func outlinePieces(_ fields: Fields, magnitude: Double, maxParts: Int) -> [[Vec2]]? {
        _ = string(fields, "shape")
        let vertices = points(fields, "vertices", outline: true)
        let tolerance = member(fields, "tolerance").map { number($0, path: fields.childPath("tolerance")) } ?? OutlineLimits.defaultTolerance
        guard let vertices, let tolerance else { return nil }
        do {
            return try OutlineDecomposer.pieces(of: vertices, tolerance: tolerance, magnitude: magnitude, maxParts: maxParts)
        } catch {
            for problem in error.problems { reportRange(fields.childPath(problem.field), problem.message) }
            return nil
        }
    }

    /// A crate written as one outline: `center`, `vertices`, `mass`, and optionally `tolerance`,
    /// `angle`, `velocity`, `angular_velocity`, `friction`, `elasticity`, `filter`, `sensor` and
    /// `color`. It becomes a body of parts, one polygon per convex piece, each sharing the mass by
    /// its area (`BodyPart.outlinePieces`), with the body's surface and settings.
    mutating func outlineCrate(_ fields: Fields, path: String, center: Vec2?) -> CrateSpec? {
        let pieces = outlinePieces(fields, magnitude: Limits.size.upperBound, maxParts: Limits.compoundParts.upperBound)
        let angle = number(fields, "angle") ?? 0
        let velocity = vector(fields, "velocity") ?? .zero
        let angularVelocity = number(fields, "angular_velocity") ?? 0
        let mass = number(fields, "mass", required: true)
        let (friction, elasticity) = surface(fields)
        let collision = collisionSettings(fields)
        let color = color(fields, "color")
        finish(fields)
        guard let center, let mass, let friction, let elasticity, let collision else { return nil }
        let massProblems = OutlineLimits.massProblems(mass)
        for problem in massProblems { reportRange(fields.childPath(problem.field), problem.message) }
        guard let pieces, massProblems.isEmpty else { return nil }
        let parts = BodyPart(shape: .circle(radius: 1), mass: mass, friction: friction, elasticity: elasticity, collision: collision)
            .outlinePieces(pieces)
        outlineOrigins[path] = PartOrigins(written: parts.map { _ in 0 }, fromOutline: parts.map { _ in true }, wholeOutline: true)
        let spec = CrateSpec(center: center, shape: .compound(parts: parts), angle: angle, velocity: velocity, angularVelocity: angularVelocity,
                             mass: parts.reduce(0) { $0 + $1.mass }, friction: friction, elasticity: elasticity, collision: collision,
                             color: color)
        // The parts carry the body's values, checked as the body's: their own names would repeat them.
        return checked(spec, path: path, problems: { $0.problems().filter { !$0.field.startsWithBytes(of: "shapes") } })
    }

    /// An outline among a body's `shapes`: `vertices`, `mass`, and optionally `tolerance`,
    /// `offset`, `angle`, `friction`, `elasticity`, `filter`, `sensor`, `color` (else `base`'s).
    /// Its pieces, in Chipmunk's order, each placed by the entry's offset and angle.
    mutating func outlinePart(_ fields: Fields, path: String, base: BodyPart) -> [BodyPart]? {
        let pieces = outlinePieces(fields, magnitude: Limits.size.upperBound, maxParts: Limits.compoundParts.upperBound)
        let offset = vector(fields, "offset") ?? .zero
        let angle = number(fields, "angle") ?? 0
        let mass = number(fields, "mass", required: true)
        let friction = member(fields, "friction").map { number($0, path: fields.childPath("friction")) } ?? base.friction
        let elasticity = member(fields, "elasticity").map { number($0, path: fields.childPath("elasticity")) } ?? base.elasticity
        let collision = collisionSettings(fields, base: base.collision)
        let color = color(fields, "color") ?? base.color
        finish(fields)
        guard let mass, let friction, let elasticity, let collision else { return nil }
        // The entry's own values are checked once, on the first piece (they are every piece's).
        let template = BodyPart(shape: .polygon(vertices: pieces?.first ?? [Vec2(0, 0), Vec2(1, 0), Vec2(0, 1)], radius: 0),
                                offset: offset, angle: angle, mass: mass, friction: friction, elasticity: elasticity,
                                collision: collision, color: color)
        let problems = template.problems()
        for problem in problems { reportRange(fields.childPath(problem.field), problem.message) }
        guard let pieces, problems.isEmpty else { return nil }
        return template.outlinePieces(pieces)
    }

    /// An outline among the scene's `walls` (world coordinates): one convex polygon wall per
    /// piece, in Chipmunk's order, at the entry's place, each with the entry's `friction`,
    /// `elasticity`, `filter`, `sensor`, `one_way`, `surface_velocity` and `color`.
    mutating func outlineWalls(_ value: JSONValue, path: String) -> WallEntry? {
        guard let fields = object(value, path: path) else { return nil }
        let pieces = outlinePieces(fields, magnitude: Limits.coordinate, maxParts: Limits.walls.upperBound)
        let (friction, elasticity) = surface(fields)
        let collision = collisionSettings(fields)
        let rules = contactRules(fields)
        let color = color(fields, "color")
        finish(fields)
        guard let friction, let elasticity, let collision, let rules else { return nil }
        var template = WallSpec(geometry: .polygon(vertices: pieces?.first ?? [Vec2(0, 0), Vec2(1, 0), Vec2(0, 1)]), radius: 0,
                                friction: friction, elasticity: elasticity, collision: collision, color: color)
        template.rules = rules
        let problems = template.problems()
        for problem in problems { reportRange(fields.childPath(problem.field), problem.message) }
        guard let pieces, problems.isEmpty else { return nil }
        return WallEntry(walls: pieces.map { piece in
            var wall = template
            wall.geometry = .polygon(vertices: piece)
            return wall
        }, digest: nil, outline: true)
    }

    /// `problem` of a body with outlines, its part named by the entry it was written as.
    static func renamingPart(_ problem: FieldProblem, _ origins: PartOrigins) -> FieldProblem {
        let field = Array(problem.field.utf8)
        guard field.starts(with: "shapes[".utf8), let close = field.firstIndex(of: UInt8(ascii: "]")),
              let k = Int(String(decoding: field[7..<close], as: UTF8.self)),
              origins.written.indices.contains(k) else { return problem }
        return FieldProblem(origins.name(k) + String(decoding: field[(close + 1)...], as: UTF8.self), problem.message)
    }
}
