import Physics
import SceneFile
import SceneModel
import TestSupport
import Testing

/// Every field of a crate, wall and joint's settings (and of the collision settings and contact
/// rules they hold) is listed here once, with what each place that lists fields by hand must do
/// with it: the world's fingerprint hashes the make-up (or, for a starting state or a look, does
/// not), `World.copy()` carries it, and the scene format has a key for it (the decoder reads the
/// schema's keys). A field added to one of these types is missing from its table, and the first
/// test fails naming it: whoever adds it then decides each place, and the other tests check them.
@Suite struct PartFieldsTests {
    /// One field of `Part`: its name as Swift spells it, a change to a valid other value, whether
    /// the world's fingerprint (its make-up) must see the change, and its key in scene files.
    struct Field<Part>: Sendable {
        let name: String
        let change: @Sendable (inout Part) -> Void
        let makeUp: Bool
        let sceneKey: String

        init(_ name: String, makeUp: Bool, key: String, _ change: @escaping @Sendable (inout Part) -> Void) {
            (self.name, self.makeUp, self.sceneKey, self.change) = (name, makeUp, key, change)
        }
    }

    /// The fields' names, in declaration order, as the runtime sees them.
    static func names<Part>(of value: Part) -> [String] { Mirror(reflecting: value).children.map { $0.label ?? "?" } }

    static let crate = CrateSpec(center: Vec2(50, 50), shape: .box(size: Vec2(10, 10)), mass: 1)
    static let crateFields: [Field<CrateSpec>] = [
        Field("center", makeUp: false, key: "center") { $0.center = Vec2(52, 50) },
        Field("shape", makeUp: true, key: "size") { $0.shape = .box(size: Vec2(10, 12)) },
        Field("angle", makeUp: false, key: "angle") { $0.angle = 0.25 },
        Field("velocity", makeUp: false, key: "velocity") { $0.velocity = Vec2(3, 0) },
        Field("angularVelocity", makeUp: false, key: "angular_velocity") { $0.angularVelocity = 1 },
        Field("mass", makeUp: true, key: "mass") { $0.mass = 2 },
        Field("friction", makeUp: true, key: "friction") { $0.friction = 0.25 },
        Field("elasticity", makeUp: true, key: "elasticity") { $0.elasticity = 0.5 },
        Field("collision", makeUp: true, key: "sensor") { $0.collision.sensor = true },
        // How it is drawn: physics ignores it, so a state restores into a world of another colour.
        Field("color", makeUp: false, key: "color") { $0.color = RGB(10, 20, 30) },
        Field("bodyType", makeUp: true, key: "body_type") { ($0.bodyType, $0.mass) = (.kinematic, .infinity) },
        Field("rules", makeUp: true, key: "surface_velocity") { $0.rules.surfaceVelocity = Vec2(5, 0) },
    ]

    static let wall = WallSpec(from: Vec2(0, 0), to: Vec2(100, 0), radius: 1)
    static let wallFields: [Field<WallSpec>] = [
        Field("geometry", makeUp: true, key: "from") { $0.geometry = .segment(from: Vec2(0, 1), to: Vec2(100, 0)) },
        Field("radius", makeUp: true, key: "radius") { $0.radius = 2 },
        Field("friction", makeUp: true, key: "friction") { $0.friction = 0.25 },
        Field("elasticity", makeUp: true, key: "elasticity") { $0.elasticity = 0.5 },
        Field("collision", makeUp: true, key: "filter") { $0.collision.filter.group = 3 },
        Field("color", makeUp: false, key: "color") { $0.color = RGB(10, 20, 30) },
        Field("rules", makeUp: true, key: "one_way") { $0.rules.oneWay = Vec2(0, 1) },
    ]

    static let jointFields: [Field<JointSettings>] = [
        Field("maxForce", makeUp: true, key: "max_force") { $0.maxForce = 1000 },
        Field("maxBias", makeUp: true, key: "max_bias") { $0.maxBias = 50 },
        Field("errorBias", makeUp: true, key: "error_bias") { $0.errorBias = 0.01 },
        Field("collideBodies", makeUp: true, key: "collide_bodies") { $0.collideBodies = false },
        Field("breakImpulse", makeUp: true, key: "break_impulse") { $0.breakImpulse = 1e6 },
        Field("breakForce", makeUp: true, key: "break_force") { $0.breakForce = 1e6 },
    ]

    /// The fields inside the collision settings and contact rules, each crate's and wall's alike.
    static let collisionFields: [Field<CollisionSettings>] = [
        Field("filter", makeUp: true, key: "filter") { $0.filter.mask = 0xff },
        Field("sensor", makeUp: true, key: "sensor") { $0.sensor = true },
    ]
    static let filterFields: [Field<ShapeFilter>] = [
        Field("group", makeUp: true, key: "group") { $0.group = 3 },
        Field("categories", makeUp: true, key: "categories") { $0.categories = 0x3 },
        Field("mask", makeUp: true, key: "mask") { $0.mask = 0x5 },
    ]
    static let rulesFields: [Field<ContactRules>] = [
        Field("oneWay", makeUp: true, key: "one_way") { $0.oneWay = Vec2(0, 1) },
        Field("surfaceVelocity", makeUp: true, key: "surface_velocity") { $0.surfaceVelocity = Vec2(5, 0) },
    ]

    @Test func theTablesListEveryField() {
        #expect(Self.names(of: Self.crate) == Self.crateFields.map(\.name), "CrateSpec's fields")
        #expect(Self.names(of: Self.wall) == Self.wallFields.map(\.name), "WallSpec's fields")
        #expect(Self.names(of: JointSettings.standard) == Self.jointFields.map(\.name), "JointSettings' fields")
        #expect(Self.names(of: CollisionSettings.standard) == Self.collisionFields.map(\.name), "CollisionSettings' fields")
        #expect(Self.names(of: ShapeFilter()) == Self.filterFields.map(\.name), "ShapeFilter's fields")
        #expect(Self.names(of: ContactRules.none) == Self.rulesFields.map(\.name), "ContactRules' fields")
    }

    /// A joint every settings field applies to (a spring: its force is what breaks it).
    static let spring = JointKind.dampedSpring(anchorA: .zero, anchorB: .zero, restLength: 30, stiffness: 20, damping: 0.5)

    /// A world of a floor, one crate and a second crate, a joint between them with `settings`.
    static func world(wall: WallSpec = wall, crate: CrateSpec = crate, settings: JointSettings = .standard) throws -> World {
        let world = try World(gravity: Vec2(0, -100))
        _ = try world.addWall(wall)
        let a = try world.addCrate(crate)
        let b = try world.addCrate(CrateSpec(center: Vec2(80, 50), shape: .circle(radius: 5), mass: 1))
        _ = try world.addJoint(spring, a: a, b: b, settings: settings)
        return world
    }

    @Test func theMakeUpFieldsAndOnlyThoseChangeTheFingerprint() throws {
        let base = try Self.world().fingerprint
        func check<Part>(_ fields: [Field<Part>], _ part: Part, _ build: (Part) throws -> World) throws {
            for field in fields {
                var changed = part
                field.change(&changed)
                let fingerprint = try build(changed).fingerprint
                #expect((fingerprint != base) == field.makeUp, "\(Part.self).\(field.name): the fingerprint \(field.makeUp ? "misses" : "sees") it")
            }
        }
        try check(Self.crateFields, Self.crate) { try Self.world(crate: $0) }
        try check(Self.wallFields, Self.wall) { try Self.world(wall: $0) }
        try check(Self.jointFields, JointSettings.standard) { try Self.world(settings: $0) }
        try check(Self.collisionFields, CollisionSettings.standard) { collision in
            var crate = Self.crate
            crate.collision = collision
            return try Self.world(crate: crate)
        }
        try check(Self.filterFields, ShapeFilter()) { filter in
            var wall = Self.wall
            wall.collision.filter = filter
            return try Self.world(wall: wall)
        }
        try check(Self.rulesFields, ContactRules.none) { rules in
            var crate = Self.crate
            crate.rules = rules
            return try Self.world(crate: crate)
        }
    }

    /// What a crate, wall and joint hold, as the world gives them back.
    static func parts(_ world: World) -> [String] {
        world.crates.map { "\($0.shape) \($0.mass) \($0.friction) \($0.elasticity) \($0.collision) \($0.rules) \($0.bodyType) \(String(describing: $0.color)) \($0.state)" }
            + world.walls.map { "\($0.spec)" } + world.joints.map { "\($0.kind) \($0.settings)" }
    }

    @Test(.needsSavedStates(World.canSaveState)) func aCopyCarriesEveryField() throws {
        func check<Part>(_ fields: [Field<Part>], _ part: Part, _ build: (Part) throws -> World) throws {
            for field in fields {
                var changed = part
                field.change(&changed)
                let world = try build(changed)
                #expect(Self.parts(try world.copy()) == Self.parts(world), "\(Part.self).\(field.name): the copy loses it")
            }
        }
        try check(Self.crateFields, Self.crate) { try Self.world(crate: $0) }
        try check(Self.wallFields, Self.wall) { try Self.world(wall: $0) }
        try check(Self.jointFields, JointSettings.standard) { try Self.world(settings: $0) }
    }

    @Test func everyFieldHasAKeyInTheSceneFormat() {
        let schema = SceneSchema.text
        let keys = Self.crateFields.map(\.sceneKey) + Self.wallFields.map(\.sceneKey) + Self.jointFields.map(\.sceneKey)
            + Self.collisionFields.map(\.sceneKey) + Self.filterFields.map(\.sceneKey) + Self.rulesFields.map(\.sceneKey)
        for key in keys { #expect(schema.contains("\"\(key)\": {"), "no \"\(key)\" in the scene schema") }
    }
}
