import SceneModel

/// A scene's parts one at a time, as input lines and records carry them (`{"step": N, "add":
/// {...}}`): read exactly as a scene file's crates, walls and joints are (every key known, every
/// value checked, problems at `file:line: path`), and written so that they read back the same
/// values, bit for bit. A part's friction and elasticity, when not given, are the standard ones
/// (a scene's `defaults` block is the scene's own).
package enum ScenePart {
    /// Why a part could not be read: each problem, with its path and line.
    package struct PartProblems: Error {
        package var all: [SceneDiagnostic]
    }

    /// Reads `value` as a scene's crate; `path` names it in problems (`add`).
    package static func crate(_ value: JSONValue, file: String, path: String) -> Result<CrateSpec, PartProblems> {
        var decoder = SceneDecoder(file: file)
        return outcome(decoder.crate(value, path: path), decoder)
    }

    /// Reads `value` as a scene's wall.
    package static func wall(_ value: JSONValue, file: String, path: String) -> Result<WallSpec, PartProblems> {
        var decoder = SceneDecoder(file: file)
        return outcome(decoder.wall(value, path: path), decoder)
    }

    /// Reads `value` as a scene's joint, its ends as written (whole numbers, `{"index": N}`,
    /// `{"id": N}` or "static").
    /// - Parameter bareEndsAreIDs: whether a bare whole number is a body's id from 1 (an input
    ///   line's `add_joint`; every end then comes out as an id, `{"index": N}` as N + 1) rather
    ///   than a crate's index from 0 (a scene's; `{"id": N}` then comes out as N − 1).
    package static func joint(_ value: JSONValue, file: String, path: String, bareEndsAreIDs: Bool = false) -> Result<JointSpec, PartProblems> {
        var decoder = SceneDecoder(file: file)
        decoder.bareJointEnd = bareEndsAreIDs ? .id : .index
        return outcome(decoder.joint(value, path: path), decoder)
    }

    private static func outcome<Part>(_ part: Part?, _ decoder: SceneDecoder) -> Result<Part, PartProblems> {
        let errors = decoder.diagnostics.filter { $0.severity == .error }
        guard let part, errors.isEmpty else { return .failure(PartProblems(all: errors)) }
        return .success(part)
    }

    // MARK: Writing

    /// A shape's keys: `shape` and its geometry, or a compound body's `shapes`.
    private static func shapeFields(_ shape: BodyShape) -> [(key: String, value: JSONOutput)] {
        switch shape {
        case let .box(size): [("shape", "box"), ("size", .numbers([size.x, size.y]))]
        case let .circle(radius): [("shape", "circle"), ("radius", .number(radius))]
        case let .polygon(vertices, radius):
            [("shape", "polygon"), ("vertices", .array(vertices.map { .numbers([$0.x, $0.y]) })), ("radius", .number(radius))]
        case let .segment(a, b, radius):
            [("shape", "segment"), ("a", .numbers([a.x, a.y])), ("b", .numbers([b.x, b.y])), ("radius", .number(radius))]
        case let .compound(parts):
            [("shapes", .array(parts.map { part -> JSONOutput in
                var fields = shapeFields(part.shape)
                fields += [("offset", .numbers([part.offset.x, part.offset.y])), ("angle", .number(part.angle)), ("mass", .number(part.mass)),
                           ("friction", .number(part.friction)), ("elasticity", .number(part.elasticity))]
                fields += collision(part.collision)
                if let color = part.color { fields.append(("color", .string(color.hex))) }
                return .object(fields)
            }))]
        }
    }

    /// A crate as a scene file writes it.
    package static func json(_ spec: CrateSpec) -> JSONOutput {
        var fields: [(key: String, value: JSONOutput)] = [("center", .numbers([spec.center.x, spec.center.y]))]
        fields += shapeFields(spec.shape)
        if spec.angle != 0 { fields.append(("angle", .number(spec.angle))) }
        if spec.velocity != .zero { fields.append(("velocity", .numbers([spec.velocity.x, spec.velocity.y]))) }
        if spec.angularVelocity != 0 { fields.append(("angular_velocity", .number(spec.angularVelocity))) }
        if spec.bodyType == .kinematic {
            fields.append(("body_type", .string(BodyType.kinematic.rawValue)))
        } else if case .compound = spec.shape {
            // A compound body's mass is its parts'.
        } else {
            fields.append(("mass", .number(spec.mass)))
        }
        fields += [("friction", .number(spec.friction)), ("elasticity", .number(spec.elasticity))]
        fields += collision(spec.collision) + rules(spec.rules)
        if let color = spec.color { fields.append(("color", .string(color.hex))) }
        return .object(fields)
    }

    /// A wall as a scene file writes it.
    package static func json(_ spec: WallSpec) -> JSONOutput {
        var fields: [(key: String, value: JSONOutput)]
        switch spec.geometry {
        case let .segment(from, to): fields = [("from", .numbers([from.x, from.y])), ("to", .numbers([to.x, to.y]))]
        case let .polygon(vertices): fields = [("shape", "polygon"), ("vertices", .array(vertices.map { .numbers([$0.x, $0.y]) }))]
        }
        fields += [("radius", .number(spec.radius)), ("friction", .number(spec.friction)), ("elasticity", .number(spec.elasticity))]
        fields += collision(spec.collision) + rules(spec.rules)
        if let color = spec.color { fields.append(("color", .string(color.hex))) }
        return .object(fields)
    }

    /// A joint as a scene file writes it, its ends `a` and `b` given as they are to be written
    /// (a number, or "static").
    package static func json(_ kind: JointKind, a: JSONOutput, b: JSONOutput, settings: JointSettings) -> JSONOutput {
        var fields: [(key: String, value: JSONOutput)] = [("kind", .string(kind.name.rawValue)), ("a", a), ("b", b)]
        func point(_ key: String, _ value: Vec2) { fields.append((key, .numbers([value.x, value.y]))) }
        switch kind {
        case let .pin(anchorA, anchorB):
            point("anchor_a", anchorA)
            point("anchor_b", anchorB)
        case let .slide(anchorA, anchorB, min, max):
            point("anchor_a", anchorA)
            point("anchor_b", anchorB)
            fields += [("min", .number(min)), ("max", .number(max))]
        case let .pivot(point: pivot): point("pivot", pivot)
        case let .pivotAnchors(anchorA, anchorB):
            point("anchor_a", anchorA)
            point("anchor_b", anchorB)
        case let .groove(grooveA, grooveB, anchorB):
            point("groove_a", grooveA)
            point("groove_b", grooveB)
            point("anchor_b", anchorB)
        case let .dampedSpring(anchorA, anchorB, restLength, stiffness, damping):
            point("anchor_a", anchorA)
            point("anchor_b", anchorB)
            fields += [("rest_length", .number(restLength)), ("stiffness", .number(stiffness)), ("damping", .number(damping))]
        case let .dampedRotarySpring(restAngle, stiffness, damping):
            fields += [("rest_angle", .number(restAngle)), ("stiffness", .number(stiffness)), ("damping", .number(damping))]
        case let .rotaryLimit(min, max): fields += [("min", .number(min)), ("max", .number(max))]
        case let .ratchet(phase, ratchet): fields += [("phase", .number(phase)), ("ratchet", .number(ratchet))]
        case let .gear(phase, ratio): fields += [("phase", .number(phase)), ("ratio", .number(ratio))]
        case let .simpleMotor(rate): fields.append(("rate", .number(rate)))
        }
        if let maxForce = settings.maxForce { fields.append(("max_force", .number(maxForce))) }
        if let maxBias = settings.maxBias { fields.append(("max_bias", .number(maxBias))) }
        if let errorBias = settings.errorBias { fields.append(("error_bias", .number(errorBias))) }
        if !settings.collideBodies { fields.append(("collide_bodies", false)) }
        if let breakImpulse = settings.breakImpulse { fields.append(("break_impulse", .number(breakImpulse))) }
        if let breakForce = settings.breakForce { fields.append(("break_force", .number(breakForce))) }
        return .object(fields)
    }

    private static func rules(_ rules: ContactRules) -> [(key: String, value: JSONOutput)] {
        var fields: [(key: String, value: JSONOutput)] = []
        if let oneWay = rules.oneWay { fields.append(("one_way", .numbers([oneWay.x, oneWay.y]))) }
        if let velocity = rules.surfaceVelocity { fields.append(("surface_velocity", .numbers([velocity.x, velocity.y]))) }
        return fields
    }

    private static func collision(_ settings: CollisionSettings) -> [(key: String, value: JSONOutput)] {
        var fields: [(key: String, value: JSONOutput)] = []
        if settings.filter != .all {
            fields.append(("filter", ["group": .unsigned(UInt64(settings.filter.group)), "categories": .unsigned(UInt64(settings.filter.categories)),
                                      "mask": .unsigned(UInt64(settings.filter.mask))]))
        }
        if settings.sensor { fields.append(("sensor", true)) }
        return fields
    }
}
