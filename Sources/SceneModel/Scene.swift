/// A crate-drop scene: a walled world, its gravity and step rate, and the crates in it.
///
/// Units: pixels, seconds, radians; y points up. Built by `SceneFile` from JSON or by hand;
/// `problems()` lists everything that is out of range before any of it reaches the physics engine.
public struct Scene: Sendable, Equatable {
    public var name: String
    /// World width and height; the bounds walls and the renderer's view use it.
    public var worldSize: Vec2
    public var gravity: Vec2
    /// Fixed steps per simulated second; every step advances exactly 1/stepRate s.
    public var stepRate: Int
    /// Chipmunk solver iterations per step (`cpSpaceSetIterations`).
    public var iterations: Int
    public var walls: [WallSpec]
    /// Four walls along the world's bounds, added before `walls`, when present.
    public var bounds: BoundsWalls?
    public var crates: [CrateSpec]
    /// Generated crates, added after `crates`.
    public var generator: PileGenerator?
    /// A box of walls on a kinematic body that turns at a constant rate, added after the walls.
    public var tumbler: TumblerSpec?
    /// Joints between crates (or a crate and the static world), made after every crate, in order.
    public var joints: [JointSpec]
    /// Crates dropped one by one as the world runs (structural changes at their steps).
    public var spawners: [Spawner] = []
    /// The pictures among the file's `walls` (their segment walls are in `walls`): what the
    /// world's fingerprint adds of them, their bytes' digests.
    public var terrain: [TerrainSource] = []
    /// Where the parts of bodies written with outlines came from, by the body's index in
    /// `crates`: for messages and `validate --explain` only (the parts themselves are in `crates`).
    public var partOrigins: [Int: PartOrigins] = [:]
    /// The `walls` entries written as outlines and the walls each became, for `validate --explain`
    /// only (the walls themselves are in `walls`).
    public var wallOutlines: [WallOutlineOrigin] = []
    /// How Chipmunk finds colliding pairs and whether resting bodies sleep.
    public var space: SpaceOptions
    public var render: RenderDefaults

    public static let defaultStepRate = 120
    public static let defaultIterations = 10

    public init(
        name: String, worldSize: Vec2, gravity: Vec2, stepRate: Int = Scene.defaultStepRate,
        iterations: Int = Scene.defaultIterations, walls: [WallSpec] = [], bounds: BoundsWalls? = nil,
        crates: [CrateSpec] = [], generator: PileGenerator? = nil, tumbler: TumblerSpec? = nil, joints: [JointSpec] = [],
        space: SpaceOptions = SpaceOptions(), render: RenderDefaults = RenderDefaults(), spawners: [Spawner] = []
    ) {
        self.spawners = spawners
        self.joints = joints
        self.name = name
        self.worldSize = worldSize
        self.gravity = gravity
        self.stepRate = stepRate
        self.iterations = iterations
        self.walls = walls
        self.bounds = bounds
        self.crates = crates
        self.generator = generator
        self.tumbler = tumbler
        self.space = space
        self.render = render
    }

    /// Every wall in the order it is added to the world: bounds (bottom, right, top, left), then `walls`.
    public func allWalls() -> [WallSpec] {
        var result: [WallSpec] = []
        if let bounds {
            let w = worldSize.x, h = worldSize.y
            let corners = [Vec2(0, 0), Vec2(w, 0), Vec2(w, h), Vec2(0, h)]
            for i in 0..<4 {
                result.append(WallSpec(from: corners[i], to: corners[(i + 1) % 4], radius: bounds.radius,
                                       friction: bounds.friction, elasticity: bounds.elasticity))
            }
        }
        return result + walls
    }

    /// Every crate in creation order: `crates`, then the generator's.
    public func allCrates() -> [CrateSpec] {
        crates + (generator?.crates(in: worldSize) ?? [])
    }
}

/// How a body moves (Chipmunk's `cpBodyType`; `body_type` in scene files).
public enum BodyType: String, Sendable, CaseIterable {
    /// Moved by forces, collisions and joints; has a mass.
    case dynamic
    /// Moved only by its velocity and angular velocity (from the scene, or set by inputs): a
    /// paddle, a conveyor, a lift. Pushes nothing aside but is pushed by nothing; no mass.
    case kinematic
}

/// A body of one shape: dynamic with a uniform density (`center` is its centre of mass; the
/// moment of inertia is that of the uniform shape), or kinematic.
public struct CrateSpec: Sendable, Equatable {
    public var center: Vec2
    public var shape: BodyShape
    public var angle: Double
    public var velocity: Vec2
    public var angularVelocity: Double
    public var mass: Double
    public var friction: Double
    public var elasticity: Double
    /// Which shapes it meets, and whether it only detects them.
    public var collision: CollisionSettings
    /// How it is drawn; nil: the scene's crate colour. Physics ignores it.
    public var color: RGB?
    /// Dynamic (the default) or kinematic; a kinematic body's `mass` is infinite.
    public var bodyType: BodyType
    /// One-way and conveyor rules for its contacts; none by default.
    public var rules: ContactRules = .none

    public init(center: Vec2, shape: BodyShape, angle: Double = 0, velocity: Vec2 = .zero, angularVelocity: Double = 0,
                mass: Double, friction: Double = Surface.standard.friction, elasticity: Double = Surface.standard.elasticity,
                collision: CollisionSettings = .standard, color: RGB? = nil, bodyType: BodyType = .dynamic) {
        self.bodyType = bodyType
        self.center = center
        self.shape = shape
        self.collision = collision
        self.color = color
        self.angle = angle
        self.velocity = velocity
        self.angularVelocity = angularVelocity
        self.mass = mass
        self.friction = friction
        self.elasticity = elasticity
    }

    /// A kinematic body: moved only by its velocity and angular velocity.
    public static func kinematic(center: Vec2, shape: BodyShape, angle: Double = 0, velocity: Vec2 = .zero, angularVelocity: Double = 0,
                                 friction: Double = Surface.standard.friction, elasticity: Double = Surface.standard.elasticity,
                                 collision: CollisionSettings = .standard, color: RGB? = nil) -> CrateSpec {
        CrateSpec(center: center, shape: shape, angle: angle, velocity: velocity, angularVelocity: angularVelocity, mass: .infinity,
                  friction: friction, elasticity: elasticity, collision: collision, color: color, bodyType: .kinematic)
    }

    /// A box crate of `size` (width, height), in pixels.
    public init(center: Vec2, size: Vec2, angle: Double = 0, velocity: Vec2 = .zero, angularVelocity: Double = 0,
                mass: Double, friction: Double = Surface.standard.friction, elasticity: Double = Surface.standard.elasticity,
                collision: CollisionSettings = .standard, color: RGB? = nil) {
        self.init(center: center, shape: .box(size: size), angle: angle, velocity: velocity, angularVelocity: angularVelocity,
                  mass: mass, friction: friction, elasticity: elasticity, collision: collision, color: color)
    }

    /// Width and height of the smallest body-frame rectangle around the shape (a box's size).
    public var size: Vec2 { shape.boundingSize }
}

/// The material of a body's or wall's surface: what Chipmunk calls friction (`cpShapeSetFriction`)
/// and elasticity (`cpShapeSetElasticity`). Chipmunk multiplies the values of the two shapes in
/// contact, so two surfaces of friction 0.6 slide with friction 0.36 (Box2D would mix them to 0.6).
public struct Surface: Sendable, Equatable {
    /// Coulomb friction coefficient, in `Limits.friction`.
    public var friction: Double
    /// Bounciness, in `Limits.elasticity`: 0 does not bounce, 1 bounces back at full speed.
    public var elasticity: Double

    public init(friction: Double = Surface.standard.friction, elasticity: Double = Surface.standard.elasticity) {
        self.friction = friction
        self.elasticity = elasticity
    }

    /// What a scene's bodies and walls get unless the scene says otherwise (its `defaults` block,
    /// or the part itself): Box2D's defaults, friction 0.6 and restitution (elasticity) 0, which
    /// users of Box2D and pymunk's examples expect.
    public static let standard = Surface(friction: 0.6, elasticity: 0)
}

/// A static wall on the world's static body: a segment with rounded ends, or a convex polygon
/// (a ramp, a wedge, a bin's side) in world coordinates; `radius` rounds it (a segment's is half
/// its thickness).
public struct WallSpec: Sendable, Equatable {
    public var geometry: WallGeometry
    public var radius: Double
    public var friction: Double
    public var elasticity: Double
    /// Which shapes it meets, and whether it only detects them.
    public var collision: CollisionSettings
    /// How it is drawn; nil: the scene's wall colour. Physics ignores it.
    public var color: RGB?
    /// One-way and conveyor rules for its contacts; none by default.
    public var rules: ContactRules = .none

    public init(geometry: WallGeometry, radius: Double, friction: Double = Surface.standard.friction,
                elasticity: Double = Surface.standard.elasticity, collision: CollisionSettings = .standard, color: RGB? = nil) {
        self.geometry = geometry
        self.radius = radius
        self.friction = friction
        self.elasticity = elasticity
        self.collision = collision
        self.color = color
    }

    /// A segment wall from `from` to `to`.
    public init(from: Vec2, to: Vec2, radius: Double, friction: Double = Surface.standard.friction,
                elasticity: Double = Surface.standard.elasticity, collision: CollisionSettings = .standard, color: RGB? = nil) {
        self.init(geometry: .segment(from: from, to: to), radius: radius, friction: friction, elasticity: elasticity,
                  collision: collision, color: color)
    }

    /// The wall's shape, as the overlap tests see it.
    public var outline: ConvexOutline { ConvexOutline(points: geometry.points, radius: radius) }

    /// The wall as drawn.
    public var state: WallState { WallState(geometry: geometry, radius: radius, color: color) }
}

/// Where a wall lies, in world coordinates.
public enum WallGeometry: Sendable, Hashable {
    case segment(from: Vec2, to: Vec2)
    /// A convex polygon, its vertices in order (either way round).
    case polygon(vertices: [Vec2])

    /// The values a world's fingerprint hashes for it: a segment's ends, as always; a polygon's
    /// opened by `ShapeFingerprint.marker`.
    public var fingerprintValues: [Double] {
        switch self {
        case let .segment(from, to): [from.x, from.y, to.x, to.y]
        case let .polygon(vertices): [ShapeFingerprint.marker, 4, Double(vertices.count)] + vertices.flatMap { [$0.x, $0.y] }
        }
    }

    /// The wall's core points: a segment's two ends, a polygon's vertices.
    public var points: [Vec2] {
        switch self {
        case let .segment(from, to): [from, to]
        case let .polygon(vertices): vertices
        }
    }
}

/// Chipmunk's collision filter (`cpShapeFilter`): two shapes collide unless they share a non-zero
/// `group`, and only if each one's `categories` meet the other's `mask`.
public struct ShapeFilter: Sendable, Hashable {
    /// 0: no group (`CP_NO_GROUP`).
    public var group: UInt32
    public var categories: UInt32
    public var mask: UInt32

    public init(group: UInt32 = 0, categories: UInt32 = .max, mask: UInt32 = .max) {
        self.group = group
        self.categories = categories
        self.mask = mask
    }

    /// Collides with everything (`CP_SHAPE_FILTER_ALL`).
    public static let all = ShapeFilter()
}

/// How a body's or wall's shape takes part in collisions.
public struct CollisionSettings: Sendable, Hashable {
    public var filter: ShapeFilter
    /// Detects overlaps (its contacts exist) but never pushes (`cpShapeSetSensor`).
    public var sensor: Bool

    public init(filter: ShapeFilter = .all, sensor: Bool = false) {
        self.filter = filter
        self.sensor = sensor
    }

    public static let standard = CollisionSettings()

    /// Whether two shapes with these settings push each other (Chipmunk's rule: no sensor, not
    /// one non-zero group, each one's categories in the other's mask). Overlap checks count only
    /// such pairs: shapes that pass through each other by design may start and rest inside each other.
    public func pushes(_ other: CollisionSettings) -> Bool {
        !sensor && !other.sensor && (filter.group == 0 || filter.group != other.filter.group)
            && filter.categories & other.filter.mask != 0 && other.filter.categories & filter.mask != 0
    }

    /// What a world's fingerprint hashes of it: nothing for the defaults (so fingerprints made
    /// before filters existed still match), else a marker and the values.
    public var fingerprintValues: [Double] {
        self == .standard ? [] : [ShapeFingerprint.settingsMarker, Double(filter.group), Double(filter.categories),
                                  Double(filter.mask), sensor ? 1 : 0]
    }
}

/// The material of the four walls that enclose the world.
public struct BoundsWalls: Sendable, Equatable {
    public var radius: Double
    public var friction: Double
    public var elasticity: Double

    public init(radius: Double, friction: Double = Surface.standard.friction, elasticity: Double = Surface.standard.elasticity) {
        self.radius = radius
        self.friction = friction
        self.elasticity = elasticity
    }
}

/// An 8-bit sRGB colour.
public struct RGB: Sendable, Equatable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// Parses `#rrggbb`.
    public init?(hex: String) {
        guard hex.utf8.count == 7, hex.utf8.first == UInt8(ascii: "#"),
              let value = UInt32(String(decoding: hex.utf8.dropFirst(), as: UTF8.self), radix: 16) else { return nil }
        self.init(UInt8(value >> 16), UInt8((value >> 8) & 0xff), UInt8(value & 0xff))
    }

    /// `#rrggbb`, as scene files write it.
    public var hex: String {
        "#" + [r, g, b].map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

/// How the renderer draws a scene unless the command line says otherwise.
public struct RenderDefaults: Sendable, Equatable {
    public var imageWidth: Int
    public var imageHeight: Int
    public var background: RGB
    public var crate: RGB
    public var wall: RGB
    /// The part of the world the image shows, fitted keeping its aspect ratio; nil: the whole world.
    public var view: ViewRect?
    /// How bodies are drawn: wooden crates, or flat colours with a rim.
    public var look: BodyLook

    public init(imageWidth: Int = 600, imageHeight: Int = 600, background: RGB = RGB(0xf4, 0xef, 0xe6),
                crate: RGB = RGB(0xb5, 0x83, 0x4a), wall: RGB = RGB(0x3c, 0x3c, 0x46), view: ViewRect? = nil,
                look: BodyLook = .crate) {
        self.view = view
        self.look = look
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.background = background
        self.crate = crate
        self.wall = wall
    }
}

/// How bodies are drawn (`render.look` in scene files).
public enum BodyLook: String, Sendable, CaseIterable {
    /// Boxes as wooden crates with planks and a brace, circles as round crates, other shapes in
    /// the crate's wood with a dark rim.
    case crate
    /// Every shape a flat fill of its colour inside a darker rim.
    case plain
}

extension RenderDefaults {
    /// The longer side, in pixels, of frames whose size a scene does not give.
    public static let defaultLongSide = 600

    /// The frame size for a scene that gives none: the shape of what the frames show (`shown`: the
    /// scene's `view`, or the whole world), its longer side `defaultLongSide` pixels and both sides
    /// even (H.264 in 4:2:0 needs even sides), so nothing is letterboxed. A square gives 600×600;
    /// 4:3 gives 600×450; 16:9 gives 600×338. A size that is not positive and finite gives 600×600.
    public static func defaultSize(showing shown: Vec2) -> (width: Int, height: Int) {
        let long = defaultLongSide
        guard shown.isFinite, shown.x > 0, shown.y > 0 else { return (long, long) }
        func short(_ ratio: Double) -> Int { max(2, 2 * Int((Double(long / 2) * ratio).rounded())) }
        return shown.x >= shown.y ? (long, short(shown.y / shown.x)) : (short(shown.x / shown.y), long)
    }
}

// Codable is native-only: Embedded Swift (the wasm core) has no Codable; the CLI's JSON reports use it.
#if !hasFeature(Embedded)
extension WallGeometry: Codable {}
extension ShapeFilter: Codable {}
extension CollisionSettings: Codable {}
extension RGB: Codable {}
#endif
