/// One part of a compound body (`.compound(parts:)`): a simple shape placed in the body's frame
/// by `offset` and `angle`, with its own mass, surface, collision settings and colour.
///
/// Chipmunk gets each part as one shape on the body (`cpShapeSetMass` with the part's mass); the
/// body's mass, centre of gravity and moment are what Chipmunk accumulates from its parts
/// (docs/scenes.md, "Construction order").
public struct BodyPart: Sendable, Hashable {
    /// A box, circle, polygon or segment in the part's own frame; never `.compound`.
    public var shape: BodyShape
    /// Where the part's origin lies in the body's frame (pixels).
    public var offset: Vec2
    /// How far the part is turned in the body's frame (radians, counter-clockwise).
    public var angle: Double
    /// Its share of the body's mass; 0 for a part that carries none (a sensor, say).
    public var mass: Double
    public var friction: Double
    public var elasticity: Double
    public var collision: CollisionSettings
    /// How it is drawn; nil: the body's colour.
    public var color: RGB?

    public init(shape: BodyShape, offset: Vec2 = .zero, angle: Double = 0, mass: Double,
                friction: Double = Surface.standard.friction, elasticity: Double = Surface.standard.elasticity,
                collision: CollisionSettings = .standard, color: RGB? = nil) {
        self.shape = shape
        self.offset = offset
        self.angle = angle
        self.mass = mass
        self.friction = friction
        self.elasticity = elasticity
        self.collision = collision
        self.color = color
    }

    /// The part's outline in the body's frame.
    public var outline: ConvexOutline { shape.outline.placed(at: offset, angle: angle) }

    /// The values a world's fingerprint hashes for this part.
    public var fingerprintValues: [Double] {
        shape.fingerprintValues + [offset.x, offset.y, angle, mass, friction, elasticity] + collision.fingerprintValues
    }

    /// Problems with the part's own values, named by its keys.
    public func problems() -> [FieldProblem] {
        var list = ProblemList()
        if case .compound = shape { list.add("shape", "a part must be a box, circle, polygon or segment") }
        list.add(shape.problems())
        list.check("offset", offset, magnitude: Limits.size.upperBound)
        list.check("angle", angle, magnitude: Limits.angle)
        if !mass.isFinite || mass < 0 || mass > Limits.mass.upperBound {
            list.add("mass", "must be in 0...\(show(Limits.mass.upperBound)), got \(show(mass))")
        }
        list.checkSurface(friction: friction, elasticity: elasticity)
        return list.problems
    }
}

extension BodyShape {
    /// The shape's convex pieces in the body's frame: one for a simple shape, each part's for a
    /// compound body. What overlap tests and drawing work on.
    public var outlines: [ConvexOutline] {
        if case let .compound(parts) = self { parts.map { $0.outline } } else { [outline] }
    }

    /// Problems of a compound body's part list, named `shapes[j].field`.
    static func compoundProblems(_ parts: [BodyPart]) -> [FieldProblem] {
        var list = ProblemList()
        guard Limits.compoundParts.contains(parts.count) else {
            list.add("shapes", "a body has \(Limits.compoundParts.lowerBound) to \(Limits.compoundParts.upperBound) parts, got \(parts.count)")
            return list.problems
        }
        for (j, part) in parts.enumerated() {
            list.add(part.problems().map { FieldProblem("shapes[\(j)].\($0.field)", $0.message) })
        }
        if list.problems.isEmpty {
            let total = parts.reduce(0) { $0 + $1.mass }
            if !(total >= Limits.mass.lowerBound) {
                list.add("shapes", "the parts' masses add up to \(show(total)): a dynamic body needs a mass of at least "
                    + "\(show(Limits.mass.lowerBound))")
            }
        }
        return list.problems
    }

    /// Parts of a compound body that share area (more than `CrateOverlaps`' contact distance):
    /// allowed (they never push each other) but likely not meant.
    /// Pieces of one outline (`origins`) are not compared with each other: they share sides.
    static func compoundWarnings(_ parts: [BodyPart], origins: PartOrigins? = nil) -> [FieldProblem] {
        let outlines = parts.map { $0.outline }
        var warnings: [FieldProblem] = []
        func name(_ k: Int) -> String { origins?.name(k) ?? "shapes[\(k)]" }
        func sameOutline(_ j: Int, _ k: Int) -> Bool {
            guard let origins, origins.fromOutline[j], origins.fromOutline[k] else { return false }
            return origins.written[j] == origins.written[k]
        }
        for j in outlines.indices {
            for k in outlines.indices where k > j && !sameOutline(j, k) && outlines[j].separation(outlines[k]) < -overlapTolerance {
                warnings.append(FieldProblem(name(k), "overlaps \(name(j)) by "
                    + "\(show((-outlines[j].separation(outlines[k]) * 100).rounded() / 100)) px: the body's mass and moment "
                    + "count the shared area twice"))
            }
        }
        return warnings
    }

    /// How deep two parts may overlap before `validate` warns (Chipmunk's collision slop).
    static let overlapTolerance = 0.1
}

// Codable is native-only: Embedded Swift (the wasm core) has no Codable; the CLI's JSON reports use it.
#if !hasFeature(Embedded)
extension BodyPart: Codable {}
#endif
