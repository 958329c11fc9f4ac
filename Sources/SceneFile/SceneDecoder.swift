import SceneModel

/// Turns a parsed JSON document into a `Scene`, strictly: unknown keys, wrong types and missing
/// fields are errors; then every value is range-checked by `Scene.problems()`. All problems are
/// collected, each with its JSON path and line, in one pass: the scene-wide checks run on the
/// parts that could be read even where others could not. Bodies placed across walls are warnings.
struct SceneDecoder {
    let file: String
    /// Every problem found, in line order (stable within a line): errors and warnings, the first
    /// `maxListed` of them and then a line saying how many more were found.
    var diagnostics: [SceneDiagnostic] {
        let kept = structural.enumerated().filter { !merged.contains($0.offset) }.map { $0.element }
        let all = (kept + range + warnings).enumerated()
            .sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }.map { $0.element }
        guard all.count > Self.maxListed else { return all }
        return Array(all.prefix(Self.maxListed))
            + [SceneDiagnostic(file: file, line: nil, path: "", message: "\(all.count - Self.maxListed) more problems (the first \(Self.maxListed) are listed)")]
    }
    /// Problems listed at most: a file with a hundred thousand bad crates is fixed from its first ones.
    static let maxListed = 200
    /// Unknown keys named at most in one object: three million of them took 48 s to refuse, one
    /// suggestion and one line each (audit round 4).
    static let maxUnknownKeysNamed = 20
    /// Problems with the file's shape: syntax, types, missing and unknown keys.
    private var structural: [SceneDiagnostic] = []
    /// Indices in `structural` of "is missing" errors that an unknown key's suggestion replaces.
    private var merged: Set<Int> = []
    /// Required keys found missing, by the path of their object: the key and its error's index in `structural`.
    private var missing: [String: [(key: String, index: Int)]] = [:]
    /// Values out of range, found part by part and for the scene as a whole.
    private var range: [SceneDiagnostic] = []
    /// What is allowed but likely not meant: bodies that start overlapping walls.
    private var warnings: [SceneDiagnostic] = []
    /// The line of every value visited, by JSON path, to place range problems found later.
    private var lines: [String: Int] = [:]
    /// The keys read of each object, by JSON path, in reading order: what `finish` allows.
    private var known: [String: [String]] = [:]
    /// The friction and elasticity of bodies and walls that give none: the scene's `defaults`
    /// block, else `Surface.standard`.
    private var surfaceDefaults = Surface.standard
    /// Where the parts of bodies with outlines came from, by the body's path (`crates[3]`).
    var outlineOrigins: [String: PartOrigins] = [:]

    /// The folder image walls' relative paths are read from: the scene file's own.
    let sceneFolderFile: String
    /// An image wall's picture that could not be read: where it was named and why (exit 66, as
    /// for the scene file itself).
    var unreadableImage: (place: String, reason: String)?

    /// - Parameter imagesBeside: the path of the scene file whose folder image paths are relative
    ///   to (`file` when nil; an embedded scene names its original file).
    init(file: String, imagesBeside: String? = nil) {
        self.file = file
        self.sceneFolderFile = imagesBeside ?? file
    }

    mutating func decode(_ root: JSONValue, defaultName: String) -> Scene? {
        guard let fields = object(root, path: "") else { return nil }
        // "$schema" names the JSON Schema for editors (Scenes/schema/scene.schema.json); no effect here.
        _ = string(fields, "$schema")
        let name = string(fields, "name") ?? defaultName
        let worldSize = vector(fields, "world", required: true)
        let gravity = vector(fields, "gravity", required: true)
        let stepRate = integer(fields, "step_rate") ?? Scene.defaultStepRate
        let iterations = integer(fields, "iterations") ?? Scene.defaultIterations
        // Read before the parts that inherit it.
        if let value = member(fields, "defaults") { surfaceDefaults = defaultsBlock(value, path: "defaults") }
        let bounds = member(fields, "bounds").flatMap { boundsWalls($0, path: "bounds") }
        // The world's limit counts the bounds' four too.
        let walls = array(fields, "walls", limit: (Limits.walls.upperBound - 4, "walls")) {
            decoder, value, path in decoder.wallEntry(value, path: path)
        }
        let crates = array(fields, "crates", limit: (Limits.crateCount.upperBound, "crates in all (inline and generated)")) { decoder, value, path in
            decoder.crate(value, path: path)
        }
        let generator = member(fields, "generator").flatMap { pileGenerator($0, path: "generator") }
        let tumbler = member(fields, "tumbler").flatMap { tumblerSpec($0, path: "tumbler") }
        let joints = array(fields, "joints", limit: (Limits.joints.upperBound, "joints")) { decoder, value, path in decoder.joint(value, path: path) }
        let spawners = array(fields, "spawners", limit: (Spawner.maxSpawners, "spawners")) { decoder, value, path in decoder.spawner(value, path: path) }
        let spatialHash = member(fields, "spatial_hash").flatMap { spatialHashSpec($0, path: "spatial_hash") }
        let sleepTime = number(fields, "sleep_time")
        var (render, sizeGiven) = member(fields, "render").flatMap { renderDefaults($0, path: "render") } ?? (RenderDefaults(), false)
        finish(fields)
        if !sizeGiven {
            let size = RenderDefaults.defaultSize(showing: render.view?.size ?? worldSize ?? Vec2(1, 1))
            (render.imageWidth, render.imageHeight) = (size.width, size.height)
        }

        // The scene as a whole is checked from the parts that could be read, with stand-ins for
        // the rest (a stand-in is never checked), so one pass reports every problem it can.
        let readCrates = (crates ?? []).enumerated().compactMap { index, crate in crate.map { (index, $0) } }
        // An image entry stands for all the segment walls it became, each named by the entry's index.
        let readWalls = (walls ?? []).enumerated().flatMap { index, entry in (entry?.walls ?? []).map { (index, $0) } }
        checkTerrainWallCount(entries: walls ?? [], bounds: bounds != nil)
        let readJoints = (joints ?? []).enumerated().compactMap { index, joint in joint.map { (index, $0) } }
        let read = Scene.PartsRead(world: worldSize != nil, crateIndices: readCrates.map { $0.0 }, wallIndices: readWalls.map { $0.0 },
                                   crateCount: crates?.count ?? 0, jointIndices: readJoints.map { $0.0 })
        var scene = Scene(name: name, worldSize: worldSize ?? Vec2(1, 1), gravity: gravity ?? .zero, stepRate: stepRate,
                          iterations: iterations, walls: readWalls.map { $0.1 }, bounds: bounds, crates: readCrates.map { $0.1 },
                          generator: generator, tumbler: tumbler, joints: readJoints.map { $0.1 },
                          space: SpaceOptions(spatialHash: spatialHash, sleepTimeThreshold: sleepTime), render: render,
                          spawners: (spawners ?? []).compactMap { $0 })
        for (position, (index, _)) in readCrates.enumerated() {
            if let origins = outlineOrigins["crates[\(index)]"] { scene.partOrigins[position] = origins }
        }
        var wallsBefore = 0
        for (index, entry) in (walls ?? []).enumerated() {
            guard let entry else { continue }
            if entry.outline { scene.wallOutlines.append(WallOutlineOrigin(entry: index, walls: wallsBefore..<(wallsBefore + entry.walls.count))) }
            wallsBefore += entry.walls.count
        }
        scene.terrain = (walls ?? []).enumerated().compactMap { index, entry in
            entry?.digest.map { TerrainSource(wallIndex: index, digest: $0, wallCount: entry?.walls.count ?? 0) }
        }
        for problem in scene.sceneProblems(read: read) {
            reportRange(problem.field, problem.message)
        }
        for problem in scene.shapeWarnings(read: read) + scene.wallOverlapWarnings(read: read) {
            warnings.append(SceneDiagnostic(file: file, line: lineOf(problem.field), path: problem.field, message: problem.message,
                                            severity: .warning))
        }
        let complete = worldSize != nil && gravity != nil && crates?.count == readCrates.count && walls?.allSatisfy({ $0 != nil }) == true
            && joints?.count == readJoints.count && spawners?.allSatisfy({ $0 != nil }) == true
        return complete && structural.isEmpty && range.isEmpty ? scene : nil
    }

    /// The scene-wide `defaults` block: friction and elasticity for bodies and walls that give
    /// none. A value out of range is reported here, once, and the parts inherit the standard one.
    private mutating func defaultsBlock(_ value: JSONValue, path: String) -> Surface {
        guard let fields = object(value, path: path) else { return .standard }
        let friction = number(fields, "friction") ?? Surface.standard.friction
        let elasticity = number(fields, "elasticity") ?? Surface.standard.elasticity
        finish(fields)
        let problems = Surface(friction: friction, elasticity: elasticity).problems()
        for problem in problems { reportRange("\(path).\(problem.field)", problem.message) }
        return Surface(friction: problems.contains { $0.field == "friction" } ? Surface.standard.friction : friction,
                       elasticity: problems.contains { $0.field == "elasticity" } ? Surface.standard.elasticity : elasticity)
    }

    /// A part's `friction` and `elasticity`, each the scene's default when not given.
    mutating func surface(_ fields: Fields) -> (friction: Double?, elasticity: Double?) {
        let friction = member(fields, "friction").map { number($0, path: fields.childPath("friction")) } ?? surfaceDefaults.friction
        let elasticity = member(fields, "elasticity").map { number($0, path: fields.childPath("elasticity")) } ?? surfaceDefaults.elasticity
        return (friction, elasticity)
    }

    // MARK: Scene parts

    /// A part as decoded, its own values range-checked now: reported in the same pass as any
    /// structural problem elsewhere in the file.
    mutating func checked<Part>(_ part: Part, path: String, problems: (Part) -> [FieldProblem]) -> Part {
        for problem in problems(part) { reportRange("\(path).\(problem.field)", problem.message) }
        return part
    }

    /// - Parameter placedAt: where a spawner puts the crate, which then has no `center` of its own.
    mutating func crate(_ value: JSONValue, path: String, placedAt: Vec2? = nil) -> CrateSpec? {
        guard let fields = object(value, path: path) else { return nil }
        let center: Vec2?
        if let placedAt {
            if fields.has("center") {
                report(fields.childPath("center"), "a spawner's crates appear at its \"at\" (moved by its \"jitter\"): give no center")
                _ = member(fields, "center")
            }
            center = placedAt
        } else {
            center = vector(fields, "center", required: true)
        }
        if fields.has("shapes") { return compoundCrate(fields, path: path, center: center) }
        if writesOutline(fields) { return outlineCrate(fields, path: path, center: center) }
        // Each shape reads only its own keys: a circle's `size`, or a box's `radius`, is an unknown key.
        // An unknown shape name is the one error: every shape's keys are allowed then.
        guard let kind = shapeKind(fields, "shape") else {
            for key in ["center", "size", "radius", "vertices", "a", "b", "angle", "velocity", "angular_velocity", "mass", "friction",
                        "elasticity", "filter", "sensor", "one_way", "surface_velocity", "color", "body_type"] { _ = member(fields, key) }
            finish(fields)
            return nil
        }
        let shape = simpleShape(kind, fields)
        let angle = number(fields, "angle") ?? 0
        let velocity = vector(fields, "velocity") ?? .zero
        let angularVelocity = number(fields, "angular_velocity") ?? 0
        let bodyType = bodyType(fields, "body_type")
        let mass: Double?
        if bodyType == .kinematic {
            if fields.has("mass") {
                report(fields.childPath("mass"), "a kinematic body has no mass: it moves only by its velocity and angular_velocity")
                _ = member(fields, "mass")
            }
            mass = .infinity
        } else {
            mass = number(fields, "mass", required: true)
        }
        let (friction, elasticity) = surface(fields)
        let collision = collisionSettings(fields)
        let rules = contactRules(fields)
        let color = color(fields, "color")
        finish(fields)
        guard let center, let shape, let mass, let friction, let elasticity, let collision, let rules, let bodyType else { return nil }
        var spec = CrateSpec(center: center, shape: shape, angle: angle, velocity: velocity, angularVelocity: angularVelocity,
                             mass: mass, friction: friction, elasticity: elasticity, collision: collision, color: color,
                             bodyType: bodyType)
        spec.rules = rules
        return checked(spec, path: path, problems: { $0.problems() })
    }

    /// A box's, circle's, polygon's or segment's own keys; nil when one is missing or malformed.
    private mutating func simpleShape(_ kind: BodyShape.Kind, _ fields: Fields) -> BodyShape? {
        switch kind {
        case .box: return vector(fields, "size", required: true).map { .box(size: $0) }
        case .circle: return number(fields, "radius", required: true).map { .circle(radius: $0) }
        case .polygon:
            let vertices = points(fields, "vertices")
            let radius = number(fields, "radius") ?? 0
            return vertices.map { .polygon(vertices: $0, radius: radius) }
        case .segment:
            let a = vector(fields, "a", required: true), b = vector(fields, "b", required: true)
            let radius = number(fields, "radius") ?? 0
            return a.flatMap { a in b.map { .segment(a: a, b: $0, radius: radius) } }
        case .compound: return nil
        }
    }

    /// A compound body: `shapes` (its parts, in the order Chipmunk gets them) with `center` and
    /// optionally `angle`, `velocity`, `angular_velocity`, and the `friction`, `elasticity`,
    /// `filter`, `sensor` and `color` its parts take when they give none. Its mass is its parts'.
    private mutating func compoundCrate(_ fields: Fields, path: String, center: Vec2?) -> CrateSpec? {
        let angle = number(fields, "angle") ?? 0
        let velocity = vector(fields, "velocity") ?? .zero
        let angularVelocity = number(fields, "angular_velocity") ?? 0
        if bodyType(fields, "body_type") == .kinematic {
            report(fields.childPath("body_type"), "a body of parts is dynamic: its mass and moment come from its parts")
        }
        let (friction, elasticity) = surface(fields)
        let collision = collisionSettings(fields)
        let color = color(fields, "color")
        let base = BodyPart(shape: .circle(radius: 1), mass: 0, friction: friction ?? Surface.standard.friction,
                            elasticity: elasticity ?? Surface.standard.elasticity, collision: collision ?? .standard, color: color)
        let parts = array(fields, "shapes", limit: (Limits.compoundParts.upperBound, "parts")) { decoder, value, partPath in
            decoder.writtenPart(value, path: partPath, base: base)
        }
        finish(fields)
        guard let center, let friction, let elasticity, let collision, let parts else { return nil }
        let written = parts.compactMap { $0 }
        guard written.count == parts.count else { return nil }
        // An outline entry stands for its convex pieces, in place (docs/scenes.md, "Construction order").
        let read = written.flatMap { $0.parts }
        var origins: PartOrigins?
        if written.contains(where: { $0.outline }) {
            origins = PartOrigins(written: written.enumerated().flatMap { j, entry in entry.parts.map { _ in j } },
                                  fromOutline: written.flatMap { entry in entry.parts.map { _ in entry.outline } }, wholeOutline: false)
            outlineOrigins[path] = origins
            guard read.count <= Limits.compoundParts.upperBound else {
                let counts = written.enumerated().filter { $0.element.outline }.map { "shapes[\($0.offset)]: \($0.element.parts.count)" }
                reportRange(fields.childPath("shapes"), "the body has \(read.count) parts once its outlines are decomposed ("
                    + counts.joined(separator: ", ") + "); a body takes at most \(Limits.compoundParts.upperBound)")
                return nil
            }
        }
        let mass = read.reduce(0) { $0 + $1.mass }
        let spec = CrateSpec(center: center, shape: .compound(parts: read), angle: angle, velocity: velocity,
                             angularVelocity: angularVelocity, mass: mass, friction: friction, elasticity: elasticity,
                             collision: collision, color: color)
        return checked(spec, path: path, problems: { spec in
            // Parts are named by the entries they were written as.
            spec.problems().map { problem in origins.map { Self.renamingPart(problem, $0) } ?? problem }
        })
    }

    /// One entry of a body's `shapes`: a simple part, or an outline's convex pieces.
    private mutating func writtenPart(_ value: JSONValue, path: String, base: BodyPart) -> (parts: [BodyPart], outline: Bool)? {
        guard let fields = object(value, path: path) else { return nil }
        if writesOutline(fields) { return outlinePart(fields, path: path, base: base).map { ($0, true) } }
        return bodyPart(fields, path: path, base: base).map { ([$0], false) }
    }

    /// One part of a compound body: a simple shape's keys, `mass`, and optionally `offset`, `angle`,
    /// and its own `friction`, `elasticity`, `filter`, `sensor` and `color` (else `base`'s).
    private mutating func bodyPart(_ fields: Fields, path: String, base: BodyPart) -> BodyPart? {
        guard let kind = shapeKind(fields, "shape") else {
            for key in ["size", "radius", "vertices", "a", "b", "offset", "angle", "mass", "friction", "elasticity", "filter", "sensor",
                        "color", "tolerance"] { _ = member(fields, key) }
            finish(fields)
            return nil
        }
        let shape = simpleShape(kind, fields)
        let offset = vector(fields, "offset") ?? .zero
        let angle = number(fields, "angle") ?? 0
        let mass = number(fields, "mass", required: true)
        let friction = member(fields, "friction").map { number($0, path: fields.childPath("friction")) } ?? base.friction
        let elasticity = member(fields, "elasticity").map { number($0, path: fields.childPath("elasticity")) } ?? base.elasticity
        let collision = collisionSettings(fields, base: base.collision)
        let color = color(fields, "color") ?? base.color
        finish(fields)
        guard let shape, let mass, let friction, let elasticity, let collision else { return nil }
        return BodyPart(shape: shape, offset: offset, angle: angle, mass: mass, friction: friction, elasticity: elasticity,
                        collision: collision, color: color)
    }

    /// A spawner: `at`, `every` and `count`, the `crate` it drops (written as a scene's crates are,
    /// without `center`), and optionally `start`, `jitter`, `scale` and `seed`.
    private mutating func spawner(_ value: JSONValue, path: String) -> Spawner? {
        guard let fields = object(value, path: path) else { return nil }
        let at = vector(fields, "at", required: true)
        let every = seconds(fields, "every", required: true)
        let start = fields.has("start") ? seconds(fields, "start") : DecimalSeconds("0")
        let count = integer(fields, "count", required: true)
        let jitter = vector(fields, "jitter") ?? .zero
        var scale: ClosedRange<Double>?
        if let pair = vector(fields, "scale") {
            if pair.x <= pair.y { scale = pair.x...pair.y } else { report(fields.childPath("scale"), "the smallest factor (\(pair.x)) is more than the largest (\(pair.y))") }
        }
        let seed = fields.has("seed") ? unsigned(fields, "seed", required: true) : 0
        var spec: CrateSpec?
        if let value = member(fields, "crate", required: true) { spec = crate(value, path: fields.childPath("crate"), placedAt: at ?? .zero) }
        finish(fields)
        guard let at, let every, let start, let count, let seed, let spec else { return nil }
        return Spawner(at: at, every: every, start: start, count: count, crate: spec, jitter: jitter, scale: scale, seed: seed)
    }

    /// A duration in plain decimal seconds (`0.25`: exact step counts follow).
    private mutating func seconds(_ fields: Fields, _ key: String, required: Bool = false) -> DecimalSeconds? {
        guard let value = member(fields, key, required: required) else { return nil }
        guard case let .number(_, literal) = value.kind, let seconds = DecimalSeconds(literal) else {
            let got = if case let .number(_, literal) = value.kind { JSONValue.excerpt(literal) } else { value.typeName }
            report(fields.childPath(key), line: value.line,
                   "must be a plain decimal number of seconds >= 0 (such as 0.25, at most 9 decimals, at most 1000000000), got \(got)")
            return nil
        }
        return seconds
    }

    /// A wall: a segment (`from`, `to`, `radius`), or with `"shape": "polygon"` a convex polygon
    /// (`vertices` in world coordinates, `radius` optional).
    mutating func wall(_ value: JSONValue, path: String) -> WallSpec? {
        guard let fields = object(value, path: path) else { return nil }
        if writesOutline(fields) {
            // A scene's `walls` entry reads outlines (`wallEntry`); here one wall is asked for.
            report(fields.childPath("shape"), "an outline becomes several walls: give it in a scene's walls, or add its convex "
                + "pieces as polygon walls")
            return nil
        }
        let geometry: WallGeometry?
        let radius: Double?
        switch wallKind(fields, "shape") ?? .segment {
        case .segment:
            let from = vector(fields, "from", required: true), to = vector(fields, "to", required: true)
            radius = number(fields, "radius", required: true)
            geometry = from.flatMap { from in to.map { .segment(from: from, to: $0) } }
        case .polygon:
            geometry = points(fields, "vertices").map { .polygon(vertices: $0) }
            radius = number(fields, "radius") ?? 0
        case .outline:
            preconditionFailure("an outline wall is read by outlineWalls")
        }
        let (friction, elasticity) = surface(fields)
        let collision = collisionSettings(fields)
        let rules = contactRules(fields)
        let color = color(fields, "color")
        finish(fields)
        guard let geometry, let radius, let friction, let elasticity, let collision, let rules else { return nil }
        var spec = WallSpec(geometry: geometry, radius: radius, friction: friction, elasticity: elasticity, collision: collision,
                            color: color)
        spec.rules = rules
        return checked(spec, path: path, problems: { $0.problems() })
    }

    /// A joint: its `kind`, its ends `a` and `b` (a crate's index or "static"), the kind's own
    /// parameters (each kind reads only its own keys) and the settings every joint has.
    mutating func joint(_ value: JSONValue, path: String) -> JointSpec? {
        guard let fields = object(value, path: path) else { return nil }
        let a = jointEnd(fields, "a"), b = jointEnd(fields, "b")
        let settings = jointSettings(fields)
        guard let name = jointName(fields, "kind") else {
            // The one error: every kind's keys are allowed then.
            for key in ["anchor_a", "anchor_b", "pivot", "groove_a", "groove_b", "min", "max", "rest_length", "stiffness", "damping",
                        "rest_angle", "phase", "ratchet", "ratio", "rate", "break_impulse", "break_force"] { _ = member(fields, key) }
            finish(fields)
            return nil
        }
        let kind: JointKind?
        switch name {
        case .pin:
            kind = anchors(fields).map { .pin(anchorA: $0.a, anchorB: $0.b) }
        case .slide:
            let anchors = anchors(fields), min = number(fields, "min", required: true), max = number(fields, "max", required: true)
            kind = anchors.flatMap { anchors in min.flatMap { min in max.map { .slide(anchorA: anchors.a, anchorB: anchors.b, min: min, max: $0) } } }
        case .pivot:
            // A world point, or two anchors: one or the other.
            if fields.has("pivot") || !(fields.has("anchor_a") || fields.has("anchor_b")) {
                kind = vector(fields, "pivot", required: true).map { .pivot(point: $0) }
                for key in ["anchor_a", "anchor_b"] where fields.has(key) {
                    report(fields.childPath(key), "a pivot joint takes either \"pivot\" (a world point) or \"anchor_a\" and \"anchor_b\", not both")
                    _ = member(fields, key)
                }
            } else {
                kind = anchors(fields).map { .pivotAnchors(anchorA: $0.a, anchorB: $0.b) }
            }
        case .groove:
            let grooveA = vector(fields, "groove_a", required: true), grooveB = vector(fields, "groove_b", required: true)
            let anchorB = vector(fields, "anchor_b", required: true)
            kind = grooveA.flatMap { grooveA in grooveB.flatMap { grooveB in anchorB.map { .groove(grooveA: grooveA, grooveB: grooveB, anchorB: $0) } } }
        case .dampedSpring:
            let anchors = anchors(fields), rest = number(fields, "rest_length", required: true)
            let stiffness = number(fields, "stiffness", required: true), damping = number(fields, "damping", required: true)
            kind = anchors.flatMap { anchors in rest.flatMap { rest in stiffness.flatMap { stiffness in damping.map {
                .dampedSpring(anchorA: anchors.a, anchorB: anchors.b, restLength: rest, stiffness: stiffness, damping: $0) } } } }
        case .dampedRotarySpring:
            let rest = number(fields, "rest_angle", required: true)
            let stiffness = number(fields, "stiffness", required: true), damping = number(fields, "damping", required: true)
            kind = rest.flatMap { rest in stiffness.flatMap { stiffness in damping.map {
                .dampedRotarySpring(restAngle: rest, stiffness: stiffness, damping: $0) } } }
        case .rotaryLimit:
            let min = number(fields, "min", required: true), max = number(fields, "max", required: true)
            kind = min.flatMap { min in max.map { .rotaryLimit(min: min, max: $0) } }
        case .ratchet:
            let phase = number(fields, "phase") ?? 0, ratchet = number(fields, "ratchet", required: true)
            kind = ratchet.map { .ratchet(phase: phase, ratchet: $0) }
        case .gear:
            let phase = number(fields, "phase") ?? 0, ratio = number(fields, "ratio", required: true)
            kind = ratio.map { .gear(phase: phase, ratio: $0) }
        case .simpleMotor:
            kind = number(fields, "rate", required: true).map { .simpleMotor(rate: $0) }
        }
        finish(fields)
        guard let kind, let a, let b, let settings else { return nil }
        return checked(JointSpec(kind, a: a, b: b, settings: settings), path: path, problems: { $0.problems() })
    }

    /// A joint's two anchors, each [0, 0] (the body's centre) when not given.
    private mutating func anchors(_ fields: Fields) -> (a: Vec2, b: Vec2)? {
        let a = fields.has("anchor_a") ? vector(fields, "anchor_a") : .zero
        let b = fields.has("anchor_b") ? vector(fields, "anchor_b") : .zero
        guard let a, let b else { return nil }
        return (a, b)
    }

    /// How a joint's end written as a bare whole number is read, and what `JointEnd.crate` then
    /// holds: a crate's index from 0 (a scene's joints) or a body's id from 1 (an input line's
    /// `add_joint`, where bodies are named by id as on every input line).
    enum BareJointEnd { case index, id }

    /// What a bare number names in the joint ends this decoder reads.
    var bareJointEnd = BareJointEnd.index

    /// A joint's end: a bare whole number (`bareJointEnd` says which it is), `{"index": N}` (a
    /// crate's index, from 0), `{"id": N}` (a body's id, from 1, as input lines, traces and events
    /// name bodies) or "static" for the world's static body; required. The two written forms say
    /// which they mean wherever they are, so a scene and an input line cannot read one differently.
    private mutating func jointEnd(_ fields: Fields, _ key: String) -> JointEnd? {
        guard let value = member(fields, key, required: true) else { return nil }
        let path = fields.childPath(key)
        switch value.kind {
        case let .string(text):
            guard text == "static" else {
                report(path, line: value.line, "must be a crate's index (from 0), {\"index\": N}, {\"id\": N} (a body's id, from 1) "
                    + "or \"static\", got \"\(TerminalText.escaped(text))\"")
                return nil
            }
            return .world
        case .object:
            guard let end = object(value, path: path) else { return nil }
            let index = member(end, "index"), id = member(end, "id")
            finish(end)
            switch (index, id) {
            case let (index?, nil):
                guard let number = integer(index, path: end.childPath("index")) else { return nil }
                guard number >= 0, number < Int.max else {
                    report(end.childPath("index"), line: index.line, "a crate's index counts from 0 (`crates`, then generated ones), got \(number)")
                    return nil
                }
                return .crate(bareJointEnd == .index ? number : number + 1)
            case let (nil, id?):
                guard let number = integer(id, path: end.childPath("id")) else { return nil }
                guard number >= 1 else {
                    report(end.childPath("id"), line: id.line, "a body's id counts from 1 (crates[0] is id 1, as traces print it), got \(number)")
                    return nil
                }
                return .crate(bareJointEnd == .index ? number - 1 : number)
            default:
                report(path, line: value.line, "names its body by \"index\" (a crate's, from 0) or by \"id\" (a body's, from 1): one of the two")
                return nil
            }
        default:
            return integer(value, path: path).map { .crate($0) }
        }
    }

    /// The settings every joint has: `max_force`, `max_bias`, `error_bias`, `collide_bodies`.
    private mutating func jointSettings(_ fields: Fields) -> JointSettings? {
        var settings = JointSettings()
        settings.maxForce = number(fields, "max_force")
        settings.maxBias = number(fields, "max_bias")
        settings.errorBias = number(fields, "error_bias")
        settings.breakImpulse = number(fields, "break_impulse")
        settings.breakForce = number(fields, "break_force")
        if let value = member(fields, "collide_bodies") {
            guard case let .bool(collide) = value.kind else {
                report(fields.childPath("collide_bodies"), line: value.line, "must be true or false, got \(value.typeName)")
                return nil
            }
            settings.collideBodies = collide
        }
        return settings
    }

    /// A joint's kind by its name, required.
    private mutating func jointName(_ fields: Fields, _ key: String) -> JointKind.Name? {
        guard fields.has(key) else {
            _ = member(fields, key, required: true)
            return nil
        }
        guard let text = string(fields, key) else { return nil }
        guard let name = JointKind.Name(rawValue: text) else {
            let names = JointKind.Name.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            let suggestion = KeySuggestion.closest(to: text, among: JointKind.Name.allCases.map { $0.rawValue })
                .map { " (did you mean \"\($0)\"?)" } ?? ""
            report(fields.childPath(key), "must be one of \(names), got \"\(TerminalText.escaped(text))\"\(suggestion)")
            return nil
        }
        return name
    }

    /// A part's `filter` and `sensor`; the defaults when absent; nil when either is malformed.
    /// - Parameter base: what a part that gives neither takes (a compound body's part: its body's).
    mutating func collisionSettings(_ fields: Fields, base: CollisionSettings = .standard) -> CollisionSettings? {
        var settings = base
        var readable = true
        if let value = member(fields, "filter") {
            let path = fields.childPath("filter")
            if let filterFields = object(value, path: path) {
                let group = bits(filterFields, "group"), categories = bits(filterFields, "categories"), mask = bits(filterFields, "mask")
                finish(filterFields)
                if case .some(nil) = group { readable = false }
                if case .some(nil) = categories { readable = false }
                if case .some(nil) = mask { readable = false }
                settings.filter = ShapeFilter(group: (group ?? 0) ?? 0, categories: (categories ?? .max) ?? .max, mask: (mask ?? .max) ?? .max)
            } else {
                readable = false
            }
        }
        if let value = member(fields, "sensor") {
            guard case let .bool(sensor) = value.kind else {
                report(fields.childPath("sensor"), line: value.line, "must be true or false, got \(value.typeName)")
                return nil
            }
            settings.sensor = sensor
        }
        return readable ? settings : nil
    }

    /// A 32-bit field of a filter: nil when absent, .some(nil) when given but not a whole number in 0...2^32−1.
    /// `one_way` and `surface_velocity`, each optional; nil when one is malformed (reported).
    mutating func contactRules(_ fields: Fields) -> ContactRules? {
        let oneWay = fields.has("one_way") ? vector(fields, "one_way") : nil
        let surfaceVelocity = fields.has("surface_velocity") ? vector(fields, "surface_velocity") : nil
        if fields.has("one_way"), oneWay == nil { return nil }
        if fields.has("surface_velocity"), surfaceVelocity == nil { return nil }
        return ContactRules(oneWay: oneWay, surfaceVelocity: surfaceVelocity)
    }

    private mutating func bits(_ fields: Fields, _ key: String) -> UInt32?? {
        guard let value = member(fields, key) else { return nil }
        guard case let .number(_, literal) = value.kind, let bits = UInt32(literal) else {
            let got = if case let .number(_, literal) = value.kind { JSONValue.excerpt(literal) } else { value.typeName }
            report(fields.childPath(key), line: value.line, "must be a whole number in 0...\(UInt32.max) (32 bits), got \(got)")
            return .some(nil)
        }
        return bits
    }

    private mutating func boundsWalls(_ value: JSONValue, path: String) -> BoundsWalls? {
        guard let fields = object(value, path: path) else { return nil }
        let radius = number(fields, "radius", required: true)
        let (friction, elasticity) = surface(fields)
        finish(fields)
        guard let radius, let friction, let elasticity else { return nil }
        return checked(BoundsWalls(radius: radius, friction: friction, elasticity: elasticity), path: path,
                       problems: { $0.problems() })
    }

    private mutating func pileGenerator(_ value: JSONValue, path: String) -> PileGenerator? {
        guard let fields = object(value, path: path) else { return nil }
        let count = integer(fields, "count", required: true)
        let seed = unsigned(fields, "seed", required: true)
        let size = vector(fields, "size", required: true)
        let density = number(fields, "density", required: true)
        let (friction, elasticity) = surface(fields)
        let gap = number(fields, "gap") ?? 1
        var region: (min: Vec2, max: Vec2)?
        if let regionValue = member(fields, "region"), let regionFields = object(regionValue, path: fields.childPath("region")) {
            let min = vector(regionFields, "min", required: true)
            let max = vector(regionFields, "max", required: true)
            finish(regionFields)
            if let min, let max { region = (min, max) }
        }
        let colors = palette(fields, "colors") ?? []
        var shapes = PileGenerator.Shapes.box
        if let text = string(fields, "shape") {
            if let named = PileGenerator.Shapes(rawValue: text) {
                shapes = named
            } else {
                report(fields.childPath("shape"), "must be one of \(PileGenerator.Shapes.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), "
                    + "got \"\(TerminalText.escaped(text))\"")
            }
        }
        let sides = integerPair(fields, "sides")
        finish(fields)
        guard let count, let seed, let size, let density, let friction, let elasticity else { return nil }
        var generator = PileGenerator(count: count, seed: seed, minSize: size.x, maxSize: size.y, density: density,
                                      friction: friction, elasticity: elasticity, gap: gap, region: region, colors: colors, shapes: shapes)
        if let sides {
            guard sides.0 <= sides.1 else {
                report(fields.childPath("sides"), "the fewest sides (\(sides.0)) is more than the most (\(sides.1))")
                return nil
            }
            generator.sides = sides.0...sides.1
        }
        return generator
    }

    private mutating func tumblerSpec(_ value: JSONValue, path: String) -> TumblerSpec? {
        guard let fields = object(value, path: path) else { return nil }
        let center = vector(fields, "center", required: true)
        let size = vector(fields, "size", required: true)
        let angularVelocity = number(fields, "angular_velocity", required: true)
        let radius = number(fields, "radius", required: true)
        let (friction, elasticity) = surface(fields)
        finish(fields)
        guard let center, let size, let angularVelocity, let radius, let friction, let elasticity else { return nil }
        return checked(TumblerSpec(center: center, size: size, angularVelocity: angularVelocity, radius: radius,
                           friction: friction, elasticity: elasticity), path: path, problems: { $0.problems() })
    }

    private mutating func spatialHashSpec(_ value: JSONValue, path: String) -> SpaceOptions.SpatialHash? {
        guard let fields = object(value, path: path) else { return nil }
        let cellSize = number(fields, "cell_size", required: true)
        let cells = integer(fields, "cells", required: true)
        finish(fields)
        guard let cellSize, let cells else { return nil }
        return SpaceOptions.SpatialHash(cellSize: cellSize, cells: cells)
    }

    /// The render block, and whether it gave a size (else the scene's shape chooses one).
    private mutating func renderDefaults(_ value: JSONValue, path: String) -> (RenderDefaults, sizeGiven: Bool)? {
        guard let fields = object(value, path: path) else { return nil }
        var render = RenderDefaults()
        let sizeGiven = member(fields, "size") != nil
        if let size = integerPair(fields, "size") {
            render.imageWidth = size.0
            render.imageHeight = size.1
        }
        render.background = color(fields, "background") ?? render.background
        render.crate = color(fields, "crate") ?? render.crate
        render.wall = color(fields, "wall") ?? render.wall
        if let text = string(fields, "look") {
            if let look = BodyLook(rawValue: text) {
                render.look = look
            } else {
                report(fields.childPath("look"), "must be one of \(BodyLook.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), "
                    + "got \"\(TerminalText.escaped(text))\"")
            }
        }
        if let viewValue = member(fields, "view"), let viewFields = object(viewValue, path: fields.childPath("view")) {
            let min = vector(viewFields, "min", required: true)
            let max = vector(viewFields, "max", required: true)
            finish(viewFields)
            if let min, let max { render.view = ViewRect(min: min, max: max) }
        }
        finish(fields)
        return (render, sizeGiven)
    }

    // MARK: Typed field access

    struct Fields {
        let members: [(key: String, value: JSONValue)]
        let path: String
        let line: Int

        func childPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        /// Whether the object has `key` (without marking it read).
        func has(_ key: String) -> Bool { members.contains { $0.key == key } }
    }

    mutating func report(_ path: String, line: Int? = nil, _ message: String) {
        structural.append(SceneDiagnostic(file: file, line: line ?? lineOf(path), path: path, message: message))
    }

    mutating func reportRange(_ path: String, _ message: String) {
        range.append(SceneDiagnostic(file: file, line: lineOf(path), path: path, message: message))
    }

    /// The line of `path`, or of its nearest enclosing value that was written in the file.
    func lineOf(_ path: String) -> Int? {
        var candidate = path
        while !candidate.isEmpty {
            if let line = lines[candidate] { return line }
            guard let cut = candidate.utf8.lastIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") }) else { break }
            candidate = String(decoding: candidate.utf8[..<cut], as: UTF8.self)
        }
        return lines[""]
    }

    mutating func object(_ value: JSONValue, path: String) -> Fields? {
        lines[path] = value.line
        guard case let .object(members) = value.kind else {
            report(path, line: value.line, "must be an object, got \(value.typeName)")
            return nil
        }
        return Fields(members: members, path: path, line: value.line)
    }

    mutating func member(_ fields: Fields, _ key: String, required: Bool = false) -> JSONValue? {
        if !known[fields.path, default: []].contains(key) { known[fields.path, default: []].append(key) }
        guard let value = fields.members.first(where: { $0.key == key })?.value else {
            if required {
                missing[fields.path, default: []].append((key, structural.count))
                report(fields.childPath(key), line: fields.line, "is missing")
            }
            return nil
        }
        lines[fields.childPath(key)] = value.line
        return value
    }

    /// Reports every key of `fields` that no reader asked for: the keys a part allows are exactly
    /// those its decoder reads, so a key is named once, where it is read. An unknown key that
    /// looks like an allowed key not given is reported with it as a suggestion, and replaces that
    /// key's "is missing".
    mutating func finish(_ fields: Fields) {
        let allowed = known[fields.path] ?? []
        let given = Set(fields.members.map { $0.key })
        var named = 0
        for (key, value) in fields.members where !allowed.contains(key) {
            named += 1
            guard named <= Self.maxUnknownKeysNamed else {
                let more = fields.members.count { !allowed.contains($0.key) } - Self.maxUnknownKeysNamed
                report(fields.path, line: fields.line, "\(more) more unknown keys (allowed: \(allowed.joined(separator: ", ")))")
                break
            }
            guard let suggestion = KeySuggestion.closest(to: key, among: allowed.filter { !given.contains($0) }) else {
                report(fields.childPath(key), line: value.line, "unknown key (allowed: \(allowed.joined(separator: ", ")))")
                continue
            }
            if let replaced = missing[fields.path]?.first(where: { $0.key == suggestion }) { merged.insert(replaced.index) }
            report(fields.childPath(key), line: value.line, "unknown key '\(TerminalText.escaped(key))' (did you mean '\(suggestion)'?)")
        }
    }

    mutating func number(_ fields: Fields, _ key: String, required: Bool = false) -> Double? {
        guard let value = member(fields, key, required: required) else { return nil }
        return number(value, path: fields.childPath(key))
    }

    mutating func number(_ value: JSONValue, path: String) -> Double? {
        guard case let .number(number, literal) = value.kind else {
            report(path, line: value.line, "must be a number, got \(value.typeName)")
            return nil
        }
        if !number.isFinite {
            report(path, line: value.line, "must be a finite number, got \(JSONValue.excerpt(literal))")
            return nil
        }
        return number
    }

    private mutating func integer(_ fields: Fields, _ key: String, required: Bool = false) -> Int? {
        guard let value = member(fields, key, required: required) else { return nil }
        return integer(value, path: fields.childPath(key))
    }

    private mutating func integer(_ value: JSONValue, path: String) -> Int? {
        guard case let .number(_, literal) = value.kind else {
            report(path, line: value.line, "must be a whole number, got \(value.typeName)")
            return nil
        }
        guard let integer = Int(literal) else {
            let problem = JSONValue.isOversizedInteger(literal) ? "is too large: must be a whole number within ±\(Int.max)"
                : "must be a whole number"
            report(path, line: value.line, "\(problem), got \(JSONValue.excerpt(literal))")
            return nil
        }
        return integer
    }

    private mutating func unsigned(_ fields: Fields, _ key: String, required: Bool) -> UInt64? {
        guard let value = member(fields, key, required: required) else { return nil }
        guard case let .number(_, literal) = value.kind, let result = UInt64(literal) else {
            report(fields.childPath(key), line: value.line, "must be a whole number in 0...\(UInt64.max)")
            return nil
        }
        return result
    }

    mutating func string(_ fields: Fields, _ key: String) -> String? {
        guard let value = member(fields, key) else { return nil }
        guard case let .string(text) = value.kind else {
            report(fields.childPath(key), line: value.line, "must be a string, got \(value.typeName)")
            return nil
        }
        return text
    }

    /// A body shape's kind, by its name (a box when not given); nil for a name it does not know.
    private mutating func shapeKind(_ fields: Fields, _ key: String) -> BodyShape.Kind? {
        guard let text = string(fields, key) else { return .box }
        // `compound` is no `shape` name: a body of parts is written with `shapes`.
        // `outline` is read before this (`writesOutline`): it becomes a body of parts.
        let kinds = BodyShape.Kind.allCases.filter { $0 != .compound }.map { $0.rawValue } + ["outline"]
        guard let kind = BodyShape.Kind(rawValue: text), kind != .compound else {
            let names = kinds.map { "\"\($0)\"" }.joined(separator: ", ")
            let suggestion = KeySuggestion.closest(to: text, among: kinds)
                .map { " (did you mean \"\($0)\"?)" } ?? ""
            report(fields.childPath(key), "must be one of \(names), got \"\(TerminalText.escaped(text))\"\(suggestion)")
            return nil
        }
        return kind
    }

    /// A body's type, by its name (dynamic when not given); nil for a name it does not know.
    private mutating func bodyType(_ fields: Fields, _ key: String) -> BodyType? {
        guard let text = string(fields, key) else { return .dynamic }
        guard let type = BodyType(rawValue: text) else {
            let names = BodyType.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            let suggestion = KeySuggestion.closest(to: text, among: BodyType.allCases.map { $0.rawValue }).map { " (did you mean \"\($0)\"?)" } ?? ""
            report(fields.childPath(key), "must be one of \(names), got \"\(TerminalText.escaped(text))\"\(suggestion)")
            return nil
        }
        return type
    }

    /// A wall's kind: a segment or a polygon.
    private mutating func wallKind(_ fields: Fields, _ key: String) -> WallKind? {
        guard let text = string(fields, key) else { return nil }
        guard let kind = WallKind(rawValue: text) else {
            let names = WallKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            let suggestion = KeySuggestion.closest(to: text, among: WallKind.allCases.map { $0.rawValue }).map { " (did you mean \"\($0)\"?)" } ?? ""
            report(fields.childPath(key), "must be one of \(names), got \"\(TerminalText.escaped(text))\"\(suggestion)")
            return nil
        }
        return kind
    }

    /// The wall kinds, by the names scene files write (an outline is read before its kind:
    /// `wallEntry`).
    enum WallKind: String, CaseIterable {
        case segment, polygon, outline
    }

    /// An array of [x, y] points (a polygon's or, with `outline`, an outline's vertices), required.
    mutating func points(_ fields: Fields, _ key: String, outline: Bool = false) -> [Vec2]? {
        guard let value = member(fields, key, required: true) else { return nil }
        let path = fields.childPath(key)
        guard case let .array(elements) = value.kind else {
            report(path, line: value.line, "must be an array of points [[x, y], ...], got \(value.typeName)")
            return nil
        }
        let allowed = outline ? OutlineLimits.vertices : Limits.polygonVertices
        guard elements.count <= allowed.upperBound else {
            report(path, line: value.line, "\(outline ? "an outline" : "a polygon") needs \(allowed.lowerBound)...\(allowed.upperBound) "
                + "vertices, got \(elements.count)")
            return nil
        }
        var result: [Vec2] = []
        var readable = true
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            lines[elementPath] = element.line
            guard case let .array(pair) = element.kind, pair.count == 2 else {
                report(elementPath, line: element.line, "must be an array of two numbers [x, y], got \(element.typeName)")
                readable = false
                continue
            }
            let x = number(pair[0], path: "\(elementPath)[0]"), y = number(pair[1], path: "\(elementPath)[1]")
            if let x, let y { result.append(Vec2(x, y)) } else { readable = false }
        }
        return readable ? result : nil
    }

    mutating func color(_ fields: Fields, _ key: String) -> RGB? {
        guard let text = string(fields, key) else { return nil }
        guard let color = RGB(hex: text) else {
            report(fields.childPath(key), "must be a colour written #rrggbb, got \"\(text)\"")
            return nil
        }
        return color
    }

    /// An array of `#rrggbb` colours.
    private mutating func palette(_ fields: Fields, _ key: String) -> [RGB]? {
        guard let value = member(fields, key) else { return nil }
        guard case let .array(elements) = value.kind else {
            report(fields.childPath(key), line: value.line, "must be an array of colours written #rrggbb, got \(value.typeName)")
            return nil
        }
        guard !elements.isEmpty else {
            report(fields.childPath(key), line: value.line,
                   "must hold \(Limits.paletteColors.lowerBound)...\(Limits.paletteColors.upperBound) colours, got 0")
            return nil
        }
        var colors: [RGB] = []
        for (index, element) in elements.enumerated() {
            guard case let .string(text) = element.kind, let color = RGB(hex: text) else {
                report("\(fields.childPath(key))[\(index)]", line: element.line, "must be a colour written #rrggbb")
                return nil
            }
            colors.append(color)
        }
        return colors
    }

    private mutating func pair(_ fields: Fields, _ key: String, required: Bool) -> (JSONValue, JSONValue)? {
        guard let value = member(fields, key, required: required) else { return nil }
        guard case let .array(elements) = value.kind, elements.count == 2 else {
            report(fields.childPath(key), line: value.line, "must be an array of two numbers [x, y], got \(value.typeName)")
            return nil
        }
        return (elements[0], elements[1])
    }

    mutating func vector(_ fields: Fields, _ key: String, required: Bool = false) -> Vec2? {
        guard let (first, second) = pair(fields, key, required: required) else { return nil }
        let path = fields.childPath(key)
        let x = number(first, path: "\(path)[0]")
        let y = number(second, path: "\(path)[1]")
        guard let x, let y else { return nil }
        return Vec2(x, y)
    }

    private mutating func integerPair(_ fields: Fields, _ key: String) -> (Int, Int)? {
        guard let (first, second) = pair(fields, key, required: false) else { return nil }
        let path = fields.childPath(key)
        let x = integer(first, path: "\(path)[0]")
        let y = integer(second, path: "\(path)[1]")
        guard let x, let y else { return nil }
        return (x, y)
    }

    /// Each element as read (nil where it could not be); nil if the value is not an array, or
    /// holds more than `limit` elements (refused before any is decoded: 200,000 inline crates were
    /// each read and checked before "at most 100000").
    private mutating func array<Element>(
        _ fields: Fields, _ key: String, limit: (count: Int, what: String)? = nil, element: (inout SceneDecoder, JSONValue, String) -> Element?
    ) -> [Element?]? {
        guard let value = member(fields, key) else { return [] }
        let path = fields.childPath(key)
        guard case let .array(elements) = value.kind else {
            report(path, line: value.line, "must be an array, got \(value.typeName)")
            return nil
        }
        if let limit, elements.count > limit.count {
            report(path, line: value.line, "\(elements.count) \(limit.what); at most \(limit.count)")
            return nil
        }
        return elements.enumerated().map { i, item in element(&self, item, "\(path)[\(i)]") }
    }
}
