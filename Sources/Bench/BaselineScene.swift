internal import CBaseline
import SceneModel

/// A scene as the C baseline takes it (`Sources/CBaseline/include/cbaseline.h`): one config,
/// the walls in creation order (bounds first), the crates in creation order, each shape as data
/// (kind, numbers, vertices), the joints, and every crate its spawners release with its step.
/// Owns the vertex storage the C structs point into, for its life.
final class BaselineScene {
    var config = cbaseline_config()
    private(set) var walls: [cbaseline_wall] = []
    private(set) var crates: [cbaseline_crate] = []
    private(set) var joints: [cbaseline_joint] = []
    /// The spawners' crates (`spawned(_:)`), in the order they are released.
    private(set) var spawns: [(step: Int, crate: cbaseline_crate)] = []
    /// Every polygon's vertices, as x, y pairs; the structs point into it.
    private let vertexStorage: UnsafeMutableBufferPointer<Double>
    /// Compound bodies' parts (and their polygons' vertices); the structs point into it.
    private let partStorage = BaselineParts()

    init(_ scene: Scene) {
        config.gravity_x = scene.gravity.x
        config.gravity_y = scene.gravity.y
        config.iterations = Int32(scene.iterations)
        config.step_rate = Int32(scene.stepRate)
        if let hash = scene.space.spatialHash {
            config.hash_cell_size = hash.cellSize
            config.hash_cells = Int32(hash.cells)
        }
        config.sleep_time = scene.space.sleepTimeThreshold ?? 0
        if let tumbler = scene.tumbler {
            config.has_tumbler = 1
            config.tumbler_cx = tumbler.center.x
            config.tumbler_cy = tumbler.center.y
            config.tumbler_width = tumbler.size.x
            config.tumbler_height = tumbler.size.y
            config.tumbler_omega = tumbler.angularVelocity
            config.tumbler_radius = tumbler.radius
            config.tumbler_friction = tumbler.friction
            config.tumbler_elasticity = tumbler.elasticity
        }
        let sceneWalls = scene.allWalls(), sceneCrates = scene.allCrates(), spawned = Self.spawned(scene)
        // Sized from every kind's own count (storedVertices: an exhaustive switch, so a new kind
        // is counted where the compiler points), and `store` refuses to write past it.
        let needed = sceneWalls.reduce(0) { $0 + Self.storedVertices($1.geometry) }
            + (sceneCrates + spawned.map(\.spec)).reduce(0) { $0 + Self.storedVertices($1.shape) }
        vertexStorage = .allocate(capacity: max(1, 2 * needed))
        var used = 0
        /// Copies `vertices` into the storage: where they start and how many.
        func store(_ vertices: [Vec2]) -> (UnsafePointer<Double>, Int32) {
            precondition(used + 2 * vertices.count <= vertexStorage.count,
                         "BaselineScene's vertex storage is smaller than the vertices stored: storedVertices misses a kind")
            let start = vertexStorage.baseAddress! + used
            for (i, v) in vertices.enumerated() { (start[2 * i], start[2 * i + 1]) = (v.x, v.y) }
            used += 2 * vertices.count
            return (UnsafePointer(start), Int32(vertices.count))
        }
        for spec in sceneWalls {
            var vertices: (UnsafePointer<Double>, Int32)?
            if case let .polygon(points) = spec.geometry { vertices = store(points) }
            walls.append(Self.wall(spec, vertices: vertices))
        }
        for spec in sceneCrates {
            var vertices: (UnsafePointer<Double>, Int32)?
            if case let .polygon(points, _) = spec.shape { vertices = store(points) }
            crates.append(Self.crate(spec, vertices: vertices, parts: partStorage.store(spec.shape)))
        }
        for spec in scene.joints { joints.append(Self.joint(spec)) }
        for (step, spec) in spawned {
            var vertices: (UnsafePointer<Double>, Int32)?
            if case let .polygon(points, _) = spec.shape { vertices = store(points) }
            spawns.append((step, Self.crate(spec, vertices: vertices, parts: partStorage.store(spec.shape))))
        }
    }

    /// How many vertices `init` stores for a body of this shape (a compound body's parts keep
    /// theirs in `BaselineParts`).
    static func storedVertices(_ shape: BodyShape) -> Int {
        switch shape {
        case let .polygon(vertices, _): vertices.count
        case .box, .circle, .segment, .compound: 0
        }
    }

    /// How many vertices `init` stores for a wall of this geometry.
    static func storedVertices(_ geometry: WallGeometry) -> Int {
        switch geometry {
        case let .polygon(vertices): vertices.count
        case .segment: 0
        }
    }

    /// A joint kind's number as `cbaseline.h` names it (CBASELINE_JOINT_*): the C side's table,
    /// which `JointKind.number` (fingerprints) equals, as BenchTests checks for every kind.
    static func jointKind(_ kind: JointKind) -> Int32 {
        let number = switch kind {
        case .pin: CBASELINE_JOINT_PIN
        case .slide: CBASELINE_JOINT_SLIDE
        case .pivot: CBASELINE_JOINT_PIVOT
        case .pivotAnchors: CBASELINE_JOINT_PIVOT_ANCHORS
        case .groove: CBASELINE_JOINT_GROOVE
        case .dampedSpring: CBASELINE_JOINT_DAMPED_SPRING
        case .dampedRotarySpring: CBASELINE_JOINT_DAMPED_ROTARY_SPRING
        case .rotaryLimit: CBASELINE_JOINT_ROTARY_LIMIT
        case .ratchet: CBASELINE_JOINT_RATCHET
        case .gear: CBASELINE_JOINT_GEAR
        case .simpleMotor: CBASELINE_JOINT_SIMPLE_MOTOR
        }
        return Int32(number)
    }

    /// A body's input's number as `cbaseline.h` names it (CBASELINE_INPUT_*), which the
    /// cross-architecture harness's "input" lines carry.
    static func inputKind(_ input: BodyInput) -> Int32 {
        let number = switch input {
        case .impulse: CBASELINE_INPUT_IMPULSE
        case .velocity: CBASELINE_INPUT_VELOCITY
        case .angularVelocity: CBASELINE_INPUT_ANGULAR_VELOCITY
        case .hold: CBASELINE_INPUT_HOLD
        case .grab: CBASELINE_INPUT_GRAB
        case .dragTo: CBASELINE_INPUT_DRAG_TO
        case .release: CBASELINE_INPUT_RELEASE
        }
        return Int32(number)
    }

    /// Every crate `scene`'s spawners release, with the step it is released at (before that step,
    /// counted from 0), in the order CrateDrop's world makes them: by step, and at one step
    /// spawner by spawner in file order. The values are the spawner's own (`Spawner.crate(_:)`:
    /// its SplitMix64 draws and `BodyShape.scaled(by:)`), worked out here once, so the C side
    /// builds the same doubles and needs no generator of its own. CrateDrop refuses a crate that
    /// would lie deep in more than 8 bodies, which this list cannot know: it holds every one.
    static func spawned(_ scene: Scene) -> [(step: Int, spec: CrateSpec)] {
        var releases: [(step: Int, spawner: Int, index: Int)] = []
        for (number, spawner) in scene.spawners.enumerated() {
            let first = spawner.firstStep(stepRate: scene.stepRate), interval = spawner.interval(stepRate: scene.stepRate)
            for index in 0..<spawner.count { releases.append((first + index * interval, number, index)) }
        }
        releases.sort { ($0.step, $0.spawner, $0.index) < ($1.step, $1.spawner, $1.index) }
        return releases.map { ($0.step, scene.spawners[$0.spawner].crate($0.index)) }
    }

    /// A wall as `cbaseline.h` takes it; a polygon's points are at `vertices` (x, y pairs and their
    /// count), which the caller keeps alive while the struct is used.
    static func wall(_ spec: WallSpec, vertices: (UnsafePointer<Double>, Int32)?) -> cbaseline_wall {
        var wall = cbaseline_wall()
        switch spec.geometry {
        case let .segment(from, to):
            wall.kind = Int32(CBASELINE_SEGMENT)
            (wall.ax, wall.ay, wall.bx, wall.by) = (from.x, from.y, to.x, to.y)
        case .polygon:
            wall.kind = Int32(CBASELINE_POLYGON)
            (wall.vertices, wall.vertex_count) = vertices.map { (Optional($0.0), $0.1) } ?? (nil, 0)
        }
        (wall.radius, wall.friction, wall.elasticity) = (spec.radius, spec.friction, spec.elasticity)
        wall.collision = collision(spec.collision)
        wall.rules = rules(spec.rules)
        return wall
    }

    /// A crate as `cbaseline.h` takes it; a polygon's points are at `vertices` (x, y pairs and
    /// their count), which the caller keeps alive while the struct is used.
    /// - Parameter parts: a compound body's parts (`BaselineParts.store`), kept alive by the caller.
    static func crate(_ spec: CrateSpec, vertices: (UnsafePointer<Double>, Int32)?,
                      parts: (UnsafePointer<cbaseline_part>, Int32)? = nil) -> cbaseline_crate {
        var crate = cbaseline_crate()
        switch spec.shape {
        case .compound:
            crate.kind = Int32(CBASELINE_COMPOUND)
            (crate.parts, crate.part_count) = parts.map { (Optional($0.0), $0.1) } ?? (nil, 0)
        case let .box(size):
            crate.kind = Int32(CBASELINE_BOX)
            (crate.width, crate.height) = (size.x, size.y)
        case let .circle(radius):
            crate.kind = Int32(CBASELINE_CIRCLE)
            crate.radius = radius
        case let .polygon(_, radius):
            crate.kind = Int32(CBASELINE_POLYGON)
            (crate.vertices, crate.vertex_count) = vertices.map { (Optional($0.0), $0.1) } ?? (nil, 0)
            crate.radius = radius
        case let .segment(a, b, radius):
            crate.kind = Int32(CBASELINE_SEGMENT)
            (crate.ax, crate.ay, crate.bx, crate.by, crate.radius) = (a.x, a.y, b.x, b.y, radius)
        }
        (crate.cx, crate.cy, crate.angle) = (spec.center.x, spec.center.y, spec.angle)
        (crate.vx, crate.vy, crate.angular_velocity) = (spec.velocity.x, spec.velocity.y, spec.angularVelocity)
        (crate.mass, crate.friction, crate.elasticity) = (spec.mass, spec.friction, spec.elasticity)
        crate.collision = collision(spec.collision)
        crate.rules = rules(spec.rules)
        crate.kinematic = spec.bodyType == .kinematic ? 1 : 0
        return crate
    }

    /// Calls `body` with `points` as x, y pairs and their count (nil: none), valid only during the call.
    static func withFlatPoints<Result>(_ points: [Vec2]?, _ body: ((UnsafePointer<Double>, Int32)?) -> Result) -> Result {
        guard let points else { return body(nil) }
        let flat = points.flatMap { [$0.x, $0.y] }
        return flat.withUnsafeBufferPointer { body(($0.baseAddress!, Int32(points.count))) }
    }

    /// A wall added as the world runs (`StructuralChange.addWall`), as `cbaseline.h` takes it,
    /// valid only during the call.
    static func withWall<Result>(_ spec: WallSpec, _ body: (cbaseline_wall) -> Result) -> Result {
        var points: [Vec2]?
        if case let .polygon(vertices) = spec.geometry { points = vertices }
        return withFlatPoints(points) { body(wall(spec, vertices: $0)) }
    }

    /// A crate added as the world runs (`StructuralChange.addCrate`), as `cbaseline.h` takes it,
    /// valid only during the call.
    static func withCrate<Result>(_ spec: CrateSpec, _ body: (cbaseline_crate) -> Result) -> Result {
        var points: [Vec2]?
        if case let .polygon(vertices, _) = spec.shape { points = vertices }
        let parts = BaselineParts()
        return withFlatPoints(points) { body(crate(spec, vertices: $0, parts: parts.store(spec.shape))) }
    }

    /// A scene's joint as `cbaseline.h` takes it (ends by crate index).
    static func joint(_ spec: JointSpec) -> cbaseline_joint {
        joint(spec.kind, a: Int32(spec.a.crateIndex ?? -1), b: Int32(spec.b.crateIndex ?? -1), settings: spec.settings)
    }

    /// A joint as `cbaseline.h` takes it: its kind's number, ends (crate indices, −1: static),
    /// parameters in the order of its `cp…New` call, settings (NaN: not set).
    static func joint(_ kind: JointKind, a: Int32, b: Int32, settings: JointSettings) -> cbaseline_joint {
        var joint = cbaseline_joint()
        joint.kind = jointKind(kind)
        joint.a = a
        joint.b = b
        withUnsafeMutableBytes(of: &joint.params) { raw in
            let params = raw.bindMemory(to: Double.self)
            for (i, value) in kind.parameters.enumerated() { params[i] = value }
        }
        joint.max_force = settings.maxForce ?? .nan
        joint.max_bias = settings.maxBias ?? .nan
        joint.error_bias = settings.errorBias ?? .nan
        joint.collide_bodies = settings.collideBodies ? 1 : 0
        joint.break_impulse = settings.breakImpulse ?? .nan
        joint.break_force = settings.breakForce ?? .nan
        return joint
    }

    /// A joint end named by body id (nil: the static body) as a crate index (−1: static).
    static func index(_ id: BodyID?) -> Int32 { id.map { index($0.rawValue) } ?? -1 }

    /// A body's or joint's index for its id: the id less one; `Int32.min`, which names nothing,
    /// for an id no world makes (0, or past `Int32.max`).
    static func index(_ id: UInt64) -> Int32 { (1...UInt64(Int32.max)).contains(id) ? Int32(id - 1) : .min }

    deinit { vertexStorage.deallocate() }

    private static func rules(_ rules: ContactRules) -> cbaseline_rules {
        cbaseline_rules(has_one_way: rules.oneWay == nil ? 0 : 1, one_way_x: rules.oneWay?.x ?? 0, one_way_y: rules.oneWay?.y ?? 0,
                        has_surface_velocity: rules.surfaceVelocity == nil ? 0 : 1, surface_vx: rules.surfaceVelocity?.x ?? 0,
                        surface_vy: rules.surfaceVelocity?.y ?? 0)
    }

    private static func collision(_ settings: CollisionSettings) -> cbaseline_collision {
        cbaseline_collision(group: settings.filter.group, categories: settings.filter.categories, mask: settings.filter.mask,
                            sensor: settings.sensor ? 1 : 0)
    }
}
