#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif

/// One out-of-range value, named by its field path relative to the value checked (e.g. `mass`,
/// `size[0]`). `SceneFile` prefixes the JSON path and line; `Physics` refuses values with any.
public struct FieldProblem: Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String

    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}

/// The ranges every value must be in before it reaches Chipmunk. Chipmunk here is a debug build
/// that calls `abort()` on NaN or non-positive mass; the upper bounds keep a step's arithmetic far
/// from overflow, so a scene that validates can never crash the process.
public enum Limits {
    public static let coordinate = 1e6
    public static let size = 0.01...1e5
    /// A circle's radius: its diameter within `size`.
    public static let circleRadius = 0.005...5e4
    public static let mass = 1e-6...1e12
    public static let friction = 0.0...1e3
    public static let elasticity = 0.0...1.0
    public static let speed = 1e6
    /// A one-way direction's parts (its length does not matter; this keeps the dot product finite).
    public static let oneWayComponent = 1e6
    public static let angle = 1e6
    public static let angularSpeed = 1e4
    public static let gravity = 1e6
    public static let wallRadius = 0.0...1e4
    /// A polygon's or segment's rounding radius.
    public static let roundingRadius = 0.0...1e4
    /// Vertices of a polygon (a body's or a wall's): each costs work in every contact test.
    public static let polygonVertices = 3...32
    /// Parts of a compound body (`shapes`): enough for a letter or a ragdoll's torso, few enough that
    /// a body's mass accumulation (Chipmunk redoes it as each part is added) stays cheap.
    public static let compoundParts = 1...64
    /// A polygon's smallest area, in px² (that of the smallest box, 0.01 px square).
    public static let polygonArea = 1e-4
    public static let worldSize = 1.0...1e6
    public static let stepRate = 1...100_000
    public static let iterations = 1...1_000
    public static let crateCount = 0...100_000
    /// Crates a crate may start overlapping (sharing area with): see `CrateOverlaps`.
    public static let overlapsPerCrate = 8
    /// Pairs of crates that may start sharing area, in all (10,000 took 1.5 s for the first step here).
    public static let overlappingPairs = 10_000
    /// Pairs of crates that may start overlapping or touching, in all: a 71×71 grid of touching
    /// crates (19,740 pairs, corners included) builds and takes its first step in 0.9 s here, a
    /// 100×100 grid (39,402 pairs) in 3.7 s, a 141×141 grid in 12 s a step: the cost grows faster
    /// than the count.
    public static let contactPairs = 20_000
    /// Bodies whose bounding boxes a body added to a running world may meet, whatever their
    /// filters: Chipmunk's broadphase keeps each such pair, so a flood of sensors added on one
    /// spot stops here, at about `contactPairs` pairs.
    public static let bodiesMetByAnAdd = 200
    /// The spatial hash's cell may be at most this many times smaller than the largest crate:
    /// Chipmunk puts each shape in every cell its bounding box covers.
    public static let cellsPerCrateSide = 16
    /// ... and at most this many times smaller than the longest wall.
    public static let cellsPerWallSide = 1024
    public static let density = 1e-9...1e6
    public static let imageSide = 1...16_384
    /// Colours in a generator's palette.
    public static let paletteColors = 1...256
    /// The generator's gap between cells, in pixels.
    public static let gap = 0.0...1e4
    public static let hashCellSize = 0.01...1e5
    public static let hashCells = 1...10_000_000
    /// Seconds at rest before a body sleeps.
    public static let sleepTime = 1e-6...1e6
    /// Joints in a scene or world.
    public static let joints = 0...100_000
    /// Walls in a world, the bounds' four among them. Chipmunk's tree takes each static shape in at
    /// a cost that grows with the walls already in (walls along a line: 10,000 in 0.5 s, 100,000 in
    /// 53 s, in `SubtreeInsert`); audit round 5 built 400,000 in 14 minutes, deaf to signals.
    public static let walls = 0...10_000
    /// A joint's lengths (a slide's limits, a spring's rest length), in pixels.
    public static let jointLength = 0.0...1e6
    /// A spring's stiffness (force per pixel) and damping (force per px/s).
    public static let springConstant = 0.0...1e15
    /// A joint's `max_force`.
    public static let jointForce = 0.0...1e18
    /// A joint's `max_bias`, the fastest it corrects its error (px/s or rad/s).
    public static let jointBias = 0.0...1e12
    /// A joint's `error_bias`: the share of its error left after a second.
    public static let errorBias = 0.0...1.0
    /// An impulse's components (mass · px/s).
    public static let impulse = 1e15
    /// A force's or torque's components.
    public static let force = 1e18
    /// Steps a force may be held for: a day at 120 steps a second.
    public static let heldSteps = 1...10_368_000
    /// The size of a gear's ratio and a ratchet's notch, either sign (0 divides by zero in Chipmunk).
    public static let jointRatio = 1e-6...1e6
}

/// Formats a number the way a user wrote it where possible: `-5`, not `-5.0`.
func show(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) <= 1e18 { return String(Int64(value)) }
    // Swift writes 1e-06 and 1e+20; a person writes 1e-6 and 1e20.
    let text = String(value)
    let bytes = Array(text.utf8)
    guard let e = bytes.firstIndex(of: UInt8(ascii: "e")),
          let exponent = Int(String(decoding: bytes[(e + 1)...], as: UTF8.self)) else { return text }
    return "\(String(decoding: bytes[..<e], as: UTF8.self))e\(exponent)"
}

struct ProblemList {
    private(set) var problems: [FieldProblem] = []

    mutating func add(_ field: String, _ message: String) { problems.append(FieldProblem(field, message)) }

    mutating func add(_ found: [FieldProblem]) { problems += found }

    mutating func check(_ field: String, _ value: Double, in range: ClosedRange<Double>) {
        if !value.isFinite {
            add(field, "must be a finite number, got \(value)")
        } else if range.lowerBound > 0, value <= 0 {
            add(field, "must be > 0, got \(show(value))")
        } else if !range.contains(value) {
            add(field, "must be in \(show(range.lowerBound))...\(show(range.upperBound)), got \(show(value))")
        }
    }

    mutating func check(_ field: String, _ value: Double, magnitude: Double) {
        check(field, value, in: -magnitude...magnitude)
    }

    mutating func check(_ field: String, _ vector: Vec2, magnitude: Double) {
        check("\(field)[0]", vector.x, magnitude: magnitude)
        check("\(field)[1]", vector.y, magnitude: magnitude)
    }

    mutating func check(_ field: String, _ vector: Vec2, in range: ClosedRange<Double>) {
        check("\(field)[0]", vector.x, in: range)
        check("\(field)[1]", vector.y, in: range)
    }

    /// The surface every wall and crate has: friction and elasticity (and a radius for walls).
    mutating func checkSurface(radius: Double? = nil, friction: Double, elasticity: Double) {
        if let radius { check("radius", radius, in: Limits.wallRadius) }
        check("friction", friction, in: Limits.friction)
        check("elasticity", elasticity, in: Limits.elasticity)
    }

    mutating func check(_ field: String, _ value: Int, in range: ClosedRange<Int>) {
        if !range.contains(value) {
            add(field, "must be in \(range.lowerBound)...\(range.upperBound), got \(value)")
        }
    }
}

extension CrateSpec {
    /// Problems with this crate's own values; position against the world is `Scene`'s business.
    public func problems() -> [FieldProblem] {
        var list = ProblemList()
        list.check("center", center, magnitude: Limits.coordinate)
        list.add(shape.problems())
        list.check("angle", angle, magnitude: Limits.angle)
        list.check("velocity", velocity, magnitude: Limits.speed)
        list.check("angular_velocity", angularVelocity, magnitude: Limits.angularSpeed)
        switch bodyType {
        case .dynamic:
            // A compound body's mass is its parts' (checked with them, `shapes`).
            if case .compound = shape {} else { list.check("mass", mass, in: Limits.mass) }
        case .kinematic:
            if mass != .infinity { list.add("mass", "a kinematic body has no mass: it moves only by its velocity") }
            if case .compound = shape { list.add("body_type", "a body of parts is dynamic: its mass and moment come from its parts") }
        }
        list.checkSurface(friction: friction, elasticity: elasticity)
        list.add(rules.problems())
        return list.problems
    }
}

extension WallSpec {
    public func problems() -> [FieldProblem] {
        var list = ProblemList()
        switch geometry {
        case let .segment(from, to):
            list.check("from", from, magnitude: Limits.coordinate)
            list.check("to", to, magnitude: Limits.coordinate)
            if from.isFinite, to.isFinite, from == to {
                list.add("to", "a wall must have a length > 0, but from and to are both [\(show(from.x)), \(show(from.y))]")
            }
        case let .polygon(vertices):
            list.add(ConvexPolygonCheck.problems(vertices, field: "vertices", magnitude: Limits.coordinate))
        }
        list.checkSurface(radius: radius, friction: friction, elasticity: elasticity)
        list.add(rules.problems())
        return list.problems
    }
}

extension TumblerSpec {
    public func problems() -> [FieldProblem] {
        var list = ProblemList()
        list.check("center", center, magnitude: Limits.coordinate)
        list.check("size", size, in: Limits.size)
        list.check("angular_velocity", angularVelocity, magnitude: Limits.angularSpeed)
        list.checkSurface(radius: radius, friction: friction, elasticity: elasticity)
        return list.problems
    }
}

extension Surface {
    public func problems() -> [FieldProblem] {
        var list = ProblemList()
        list.checkSurface(friction: friction, elasticity: elasticity)
        return list.problems
    }
}

extension BoundsWalls {
    public func problems() -> [FieldProblem] {
        var list = ProblemList()
        list.checkSurface(radius: radius, friction: friction, elasticity: elasticity)
        return list.problems
    }
}

extension PileGenerator {
    /// Problems with the generator's values, and whether `count` crates fit in a world of `worldSize`.
    public func problems(in worldSize: Vec2) -> [FieldProblem] {
        var list = ProblemList()
        list.check("count", count, in: Limits.crateCount)
        list.check("size[0]", minSize, in: Limits.size)
        list.check("size[1]", maxSize, in: Limits.size)
        if minSize.isFinite, maxSize.isFinite, minSize > maxSize {
            list.add("size", "minimum \(show(minSize)) is larger than maximum \(show(maxSize))")
        }
        list.check("density", density, in: Limits.density)
        list.checkSurface(friction: friction, elasticity: elasticity)
        list.check("gap", gap, in: Limits.gap)
        if !(RegularPolygon.sides.contains(sides.lowerBound) && RegularPolygon.sides.contains(sides.upperBound)) {
            list.add("sides", "must be within \(RegularPolygon.sides.lowerBound)...\(RegularPolygon.sides.upperBound), "
                + "got \(sides.lowerBound)...\(sides.upperBound)")
        }
        if !colors.isEmpty, !Limits.paletteColors.contains(colors.count) {
            list.add("colors", "must hold \(Limits.paletteColors.lowerBound)...\(Limits.paletteColors.upperBound) colours, got \(colors.count)")
        }
        if let region {
            list.check("region.min", region.min, in: 0...Limits.coordinate)
            list.check("region.max", region.max, in: 0...Limits.coordinate)
            if region.min.isFinite, region.max.isFinite, !(region.min.x < region.max.x && region.min.y < region.max.y) {
                list.add("region", "min must be below and left of max")
            } else if region.max.x > worldSize.x || region.max.y > worldSize.y {
                list.add("region.max", "is outside the world")
            }
        }
        if list.problems.isEmpty, count > capacity(in: worldSize) {
            list.add("count", "\(count) crates of up to \(show(maxSize)) px do not fit in the "
                + "\(show(worldSize.x))x\(show(worldSize.y)) world (at most \(capacity(in: worldSize)))")
        }
        // The smallest body has the least area for its size: a box's side squared, a circle's
        // π/4 of it, a regular polygon's (n/8)·sin(2π/n) of its diameter squared for its fewest sides.
        let leastAreaShare = switch shapes {
        case .box: 1.0
        case .circle: Double.pi / 4
        case .polygon, .mix:
            min(Double.pi / 4, RegularPolygon.areaShare(sides: min(max(sides.lowerBound, RegularPolygon.sides.lowerBound),
                                                                   RegularPolygon.sides.upperBound)))
        }
        if list.problems.isEmpty, density * maxSize * maxSize > Limits.mass.upperBound
            || density * leastAreaShare * minSize * minSize < Limits.mass.lowerBound {
            list.add("density", "gives crate masses outside \(show(Limits.mass.lowerBound))...\(show(Limits.mass.upperBound))")
        }
        if list.problems.isEmpty, shapes == .polygon || shapes == .mix, leastAreaShare * minSize * minSize < Limits.polygonArea {
            list.add("size[0]", "gives polygons smaller than \(show(Limits.polygonArea)) px²: at least \(show(((Limits.polygonArea / leastAreaShare).squareRoot() * 1000).rounded(.up) / 1000)) px")
        }
        return list.problems
    }
}

extension Scene {
    /// What could be read of a scene file that has problems elsewhere. The scene holds the parts
    /// read and stand-ins for the rest (`Scene.worldSize` when the world could not be read; a
    /// crate or wall that could not be read is left out), and `sceneProblems(read:)` checks what
    /// it can, so one pass over a file reports every problem its structure allows.
    public struct PartsRead: Sendable, Equatable {
        /// False: `worldSize` is a stand-in, and nothing is checked against the world.
        public var world: Bool
        /// The index in the file of each of the scene's `crates`; nil: the same as in the scene.
        public var crateIndices: [Int]?
        /// The index in the file of each of the scene's `walls`; nil: the same as in the scene.
        public var wallIndices: [Int]?
        /// How many crates the file lists, read or not; nil: `crates.count`.
        public var crateCount: Int?
        /// The index in the file of each of the scene's `joints`; nil: the same as in the scene.
        public var jointIndices: [Int]?

        public init(world: Bool = true, crateIndices: [Int]? = nil, wallIndices: [Int]? = nil, crateCount: Int? = nil,
                    jointIndices: [Int]? = nil) {
            self.world = world
            self.crateIndices = crateIndices
            self.wallIndices = wallIndices
            self.crateCount = crateCount
            self.jointIndices = jointIndices
        }

        /// Every part was read.
        public static let all = PartsRead()
    }

    /// Crates that start overlapping too many others (`CrateOverlaps`), named by `name` (a crate's
    /// position in `checked`).
    func overlapProblems(_ checked: [CrateSpec], name: (Int) -> String) -> [FieldProblem] {
        let report = CrateOverlaps.check(checked)
        if report.gaveUp {
            return [FieldProblem("crates", "too many crates of too different sizes lie too close together to check for "
                + "overlaps within \(CrateOverlaps.maxWork) tests; spread them out")]
        }
        if report.overlappingPairs > Limits.overlappingPairs {
            return [FieldProblem("crates", "more than \(Limits.overlappingPairs) pairs of crates start overlapping; at most "
                + "\(Limits.overlappingPairs): Chipmunk's first steps slow down steeply with many overlaps (docs/scenes.md, \"Limits\")")]
        }
        if report.contactPairs > Limits.contactPairs {
            return [FieldProblem("crates", "more than \(Limits.contactPairs) pairs of crates start touching or overlapping; at most "
                + "\(Limits.contactPairs): a large packed block of crates makes Chipmunk's steps slow down steeply "
                + "(docs/scenes.md, \"Limits\"); leave gaps between them, as the generator does (sensors and crates a filter keeps "
                + "apart count too, by their bounding boxes: Chipmunk's broadphase keeps every such pair)")]
        }
        return report.crowded.map { crowded in
            let examples = crowded.examples.map(name).joined(separator: ", ")
            let own = name(crowded.index)
            let generated = !own.startsWithBytes(of: "crates[")
            return FieldProblem(generated ? "generator" : own,
                                (generated ? "\(own) " : "") + "starts overlapping more than \(Limits.overlapsPerCrate) other crates "
                                    + "(\(examples), …); at most \(Limits.overlapsPerCrate): every overlap is a contact Chipmunk "
                                    + "resolves in every step, and a heap of them makes a step take minutes")
        }
    }

    /// The spatial hash must fit the scene: Chipmunk puts every shape in each cell its bounding box
    /// covers and walks a bucket's whole chain on every query, so tiny cells or few buckets make
    /// steps (or the build) take minutes.
    func spatialHashProblems(_ hash: SpaceOptions.SpatialHash, allCrates: [CrateSpec], crateCount: Int) -> [FieldProblem] {
        var found: [FieldProblem] = []
        let largestCrate = allCrates.map { $0.shape.reach }.max() ?? 0
        if hash.cellSize * Double(Limits.cellsPerCrateSide) < largestCrate {
            found.append(FieldProblem("spatial_hash.cell_size", "\(show(hash.cellSize)) is too small for crates up to "
                + "\(show(largestCrate.rounded(.up))) px across: Chipmunk puts a crate in every cell it covers, so the cell must be "
                + "at least 1/\(Limits.cellsPerCrateSide) of the largest crate's diagonal (here \(show((largestCrate / Double(Limits.cellsPerCrateSide)).rounded(.up))))"))
        }
        var longestWall = allWalls().map { wall in
            let (low, high) = wall.outline.bounds
            return max(high.x - low.x, high.y - low.y)
        }.max() ?? 0
        if let tumbler { longestWall = max(longestWall, (tumbler.size.x * tumbler.size.x + tumbler.size.y * tumbler.size.y).squareRoot()) }
        if hash.cellSize * Double(Limits.cellsPerWallSide) < longestWall {
            found.append(FieldProblem("spatial_hash.cell_size", "\(show(hash.cellSize)) is too small for walls up to "
                + "\(show(longestWall.rounded(.up))) px long: the cell must be at least 1/\(Limits.cellsPerWallSide) of the longest wall"))
        }
        let shapes = crateCount + (generator?.count ?? 0)
        if hash.cells < shapes {
            found.append(FieldProblem("spatial_hash.cells", "\(hash.cells) buckets for \(shapes) crates: give at least one per "
                + "crate (Chipmunk's manual suggests about ten), or every query walks long chains"))
        }
        return found
    }

    /// Every problem in the scene, with paths in the scene file's terms (`crates[3].mass`).
    public func problems() -> [FieldProblem] {
        var found: [FieldProblem] = []
        for problem in bounds?.problems() ?? [] { found.append(FieldProblem("bounds.\(problem.field)", problem.message)) }
        for (i, wall) in walls.enumerated() {
            for problem in wall.problems() { found.append(FieldProblem("walls[\(i)].\(problem.field)", problem.message)) }
        }
        for (i, crate) in crates.enumerated() {
            for problem in crate.problems() { found.append(FieldProblem("crates[\(i)].\(problem.field)", problem.message)) }
        }
        for problem in tumbler?.problems() ?? [] { found.append(FieldProblem("tumbler.\(problem.field)", problem.message)) }
        for (i, joint) in joints.enumerated() {
            for problem in joint.problems() { found.append(FieldProblem("joints[\(i)].\(problem.field)", problem.message)) }
        }
        return sceneProblems() + found
    }

    /// The problems of the scene as a whole: its own values, and its parts against the world and
    /// each other (crates inside the world, counts, overlaps). The parts' own values are checked by
    /// their `problems()`; a scene file decoder reports those as it reads each part, so that one
    /// pass over a file reports range problems even where another part is malformed.
    public func sceneProblems() -> [FieldProblem] { sceneProblems(read: .all) }

    /// The problems of the scene as a whole (`sceneProblems()`), for a scene only partly read from
    /// its file: checks that need a part not read are left out, and crates and walls are named by
    /// their index in the file. Checks across crates take those whose own values are valid.
    public func sceneProblems(read: PartsRead) -> [FieldProblem] {
        var list = ProblemList()
        if read.world { list.check("world", worldSize, in: Limits.worldSize) }
        // Checks against the world's extent only make sense once the extent itself is valid.
        let worldIsValid = read.world && list.problems.isEmpty
        list.check("gravity", gravity, magnitude: Limits.gravity)
        list.check("step_rate", stepRate, in: Limits.stepRate)
        list.check("iterations", iterations, in: Limits.iterations)
        var found = list.problems
        // Crates to check against each other: valid on their own and inside the world.
        var checked: [CrateSpec] = [], checkedNames: [String] = []
        for (i, crate) in crates.enumerated() {
            let name = "crates[\(read.crateIndices?[i] ?? i)]"
            let c = crate.center
            if c.isFinite, worldIsValid, !(0...worldSize.x).contains(c.x) || !(0...worldSize.y).contains(c.y) {
                found.append(FieldProblem("\(name).center", "[\(show(c.x)), \(show(c.y))] is outside the "
                    + "world (0...\(show(worldSize.x)), 0...\(show(worldSize.y)))"))
            } else if worldIsValid, crate.problems().isEmpty {
                checked.append(crate)
                checkedNames.append(name)
            }
        }
        var generatorIsValid = false
        if let generator, worldIsValid {
            let problems = generator.problems(in: worldSize)
            for problem in problems { found.append(FieldProblem("generator.\(problem.field)", problem.message)) }
            generatorIsValid = problems.isEmpty
        }
        // Every crate counts, inline or generated; the sum is checked, since count is outside input.
        let crateCount = read.crateCount ?? crates.count
        let (total, overflow) = crateCount.addingReportingOverflow(max(0, generator?.count ?? 0))
        let countIsValid = !overflow && total <= Limits.crateCount.upperBound
        if !countIsValid {
            found.append(FieldProblem(generator == nil ? "crates" : "generator.count",
                                      "\(overflow ? "more than \(Int.max)" : String(total)) crates in all (inline and generated); "
                                        + "at most \(Limits.crateCount.upperBound)"))
        }
        if spawners.count > Spawner.maxSpawners {
            found.append(FieldProblem("spawners", "\(spawners.count) spawners; at most \(Spawner.maxSpawners)"))
        }
        for (i, spawner) in spawners.prefix(Spawner.maxSpawners).enumerated() where worldIsValid {
            for problem in spawner.problems(worldSize: worldSize, stepRate: stepRate) {
                found.append(FieldProblem("spawners[\(i)].\(problem.field)", problem.message))
            }
        }
        // Spawned crates count too: every body the world may hold at once, were none removed.
        if countIsValid, !spawners.isEmpty {
            var spawned = total
            for (i, spawner) in spawners.enumerated() {
                let (sum, overflow) = spawned.addingReportingOverflow(max(0, spawner.count))
                if overflow || sum > Limits.crateCount.upperBound {
                    found.append(FieldProblem("spawners[\(i)].count", "\(overflow ? "more than \(Int.max)" : String(sum)) crates in all "
                        + "(inline, generated and spawned up to this spawner); at most \(Limits.crateCount.upperBound)"))
                    break
                }
                spawned = sum
            }
        }
        // Generated once for both checks below (up to 100,000 crates).
        let inline = checked.count
        if countIsValid, generatorIsValid, let generator { checked += generator.crates(in: worldSize) }
        func name(_ index: Int) -> String { index < inline ? checkedNames[index] : "generated crate \(index - inline)" }
        if countIsValid { found += overlapProblems(checked, name: name) }
        if !joints.isEmpty, countIsValid {
            // Joints name crates by their place in the file; a crate not valid on its own is nil.
            var byIndex = [CrateSpec?](repeating: nil, count: crateCount)
            for (i, crate) in crates.enumerated() where crate.problems().isEmpty {
                let index = read.crateIndices?[i] ?? i
                if index < byIndex.count { byIndex[index] = crate }
            }
            if generatorIsValid { byIndex += checked[inline...].map { $0 } }
            found += jointProblems(crates: byIndex, crateCount: total, jointIndices: read.jointIndices)
        }
        var spaceList = ProblemList()
        if let hash = space.spatialHash {
            spaceList.check("spatial_hash.cell_size", hash.cellSize, in: Limits.hashCellSize)
            spaceList.check("spatial_hash.cells", hash.cells, in: Limits.hashCells)
            if spaceList.problems.isEmpty, countIsValid {
                for problem in spatialHashProblems(hash, allCrates: checked, crateCount: crateCount) {
                    spaceList.add(problem.field, problem.message)
                }
            }
        }
        if let sleep = space.sleepTimeThreshold { spaceList.check("sleep_time", sleep, in: Limits.sleepTime) }
        found += spaceList.problems
        var renderList = ProblemList()
        renderList.check("size[0]", render.imageWidth, in: Limits.imageSide)
        renderList.check("size[1]", render.imageHeight, in: Limits.imageSide)
        if let problem = render.view?.problem { renderList.add("view", problem) }
        for problem in renderList.problems { found.append(FieldProblem("render.\(problem.field)", problem.message)) }
        return found
    }

    /// Every wall a body may meet at the start, with its name in the scene file's terms: the
    /// bounds (`bounds (bottom wall)`, ...), `walls[i]`, and the tumbler's four walls where it
    /// starts. Walls are named by `read.wallIndices`.
    public func namedWalls(read: PartsRead = .all) -> [(name: String, wall: WallSpec)] {
        var result: [(name: String, wall: WallSpec)] = []
        let sides = ["bottom", "right", "top", "left"]
        if read.world, sceneWorldIsValid, let bounds, bounds.problems().isEmpty {
            for (i, wall) in allWalls().prefix(4).enumerated() { result.append(("bounds (\(sides[i]) wall)", wall)) }
        }
        for (i, wall) in walls.enumerated() where wall.problems().isEmpty {
            result.append(("walls[\(read.wallIndices?[i] ?? i)]", wall))
        }
        if let tumbler, tumbler.problems().isEmpty {
            for (i, local) in tumbler.localWalls.enumerated() {
                result.append(("tumbler (\(sides[i]) wall)", WallSpec(from: tumbler.center + local.from, to: tumbler.center + local.to,
                                                                 radius: tumbler.radius, friction: tumbler.friction,
                                                                 elasticity: tumbler.elasticity)))
            }
        }
        return result
    }

    private var sceneWorldIsValid: Bool {
        var list = ProblemList()
        list.check("world", worldSize, in: Limits.worldSize)
        return list.problems.isEmpty
    }

    /// Bodies that start overlapping a wall (`WallOverlaps`): warnings, not errors. Each names the
    /// body (`crates[i]`, or `generator` for a generated crate) and the wall; at most `limit`,
    /// then one that counts the rest. Only crates and walls whose own values are valid are checked.
    public func wallOverlapWarnings(read: PartsRead = .all, limit: Int = 10) -> [FieldProblem] {
        let walls = namedWalls(read: read)
        guard !walls.isEmpty else { return [] }
        var bodies: [CrateSpec] = [], names: [String] = []
        for (i, crate) in crates.enumerated() where crate.problems().isEmpty {
            bodies.append(crate)
            names.append("crates[\(read.crateIndices?[i] ?? i)]")
        }
        if read.world, sceneWorldIsValid, let generator, generator.problems(in: worldSize).isEmpty {
            for (i, crate) in generator.crates(in: worldSize).enumerated() {
                bodies.append(crate)
                names.append("generated crate \(i)")
            }
        }
        // A crate wholly inside the world is not reported against the bounds walls: their centre
        // lines are the world's edges, so it reaches at most into their inner half and Chipmunk
        // pushes it inward (the classic book scene's crates touch the top edge this way).
        let bounds = Set(walls.indices.filter { walls[$0].name.startsWithBytes(of: "bounds ") })
        let report = WallOverlaps.check(bodies: bodies, walls: walls.map { $0.wall })
        var overlaps = report.overlaps
        if !bounds.isEmpty {
            overlaps.removeAll { bounds.contains($0.wall) && Self.isInside(bodies[$0.body], world: worldSize) }
        }
        if report.gaveUp {
            return [FieldProblem("walls", "\(bodies.count) crates and \(walls.count) walls are too many pairs to check for "
                + "crates overlapping walls (at most \(WallOverlaps.maxWork)); not checked")]
        }
        var found: [FieldProblem] = []
        for overlap in overlaps.prefix(limit) {
            let name = names[overlap.body], generated = !name.startsWithBytes(of: "crates[")
            let depth = (overlap.depth * 100).rounded() / 100
            found.append(FieldProblem(generated ? "generator" : name,
                                      (generated ? "\(name) " : "") + "starts overlapping \(walls[overlap.wall].name) by \(show(depth)) px"
                                        + (overlap.across ? Self.acrossNote(walls[overlap.wall].wall.geometry) : "")))
        }
        if overlaps.count > limit {
            found.append(FieldProblem("", "\(overlaps.count - limit) more crate-wall overlaps not listed"))
        }
        return found
    }

    /// What a body lying across a wall (`WallOverlaps.Overlap.across`) risks.
    private static func acrossNote(_ geometry: WallGeometry) -> String {
        switch geometry {
        case .segment: ", lying across its centre line: Chipmunk pushes it out the shorter way, which may be the wall's far side"
        case .polygon: ", reaching inside it: Chipmunk pushes it out the shorter way, which may be the wall's far side"
        }
    }

    /// Polygons whose centroid lies far from their body's position (`BodyShape.warnings()`),
    /// named `crates[i].vertices`.
    public func shapeWarnings(read: PartsRead = .all) -> [FieldProblem] {
        crates.enumerated().flatMap { i, crate in
            crate.shape.warnings(origins: partOrigins[i]).map { FieldProblem("crates[\(read.crateIndices?[i] ?? i)].\($0.field)", $0.message) }
        }
    }

    /// Whether the whole shape lies in the world's rectangle (edges included).
    static func isInside(_ crate: CrateSpec, world: Vec2) -> Bool {
        let extent = crate.shape.halfExtents(angle: crate.angle)
        let (extentX, extentY) = (extent.x, extent.y)
        return crate.center.x - extentX >= 0 && crate.center.x + extentX <= world.x
            && crate.center.y - extentY >= 0 && crate.center.y + extentY <= world.y
    }
}
