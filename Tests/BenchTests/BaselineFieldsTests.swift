@testable import Bench
import SceneModel
import TestSupport
import Testing

/// The C side's spec line (`BaselineSpec`, which the cross-architecture harness builds a world
/// from) carries every field of a crate, a wall and a joint's settings that the physics reads:
/// each field is listed here (a new one fails the first test, naming it), and a change to any but
/// a look (a colour) changes the spec. PhysicsTests' PartFieldsTests does the same for the
/// fingerprint, copy() and the scene format.
@Suite struct BaselineFieldsTests {
    /// A field, a change to a valid other value, and whether the C side must see it.
    typealias Field<Part> = (name: String, physics: Bool, change: @Sendable (inout Part) -> Void)

    static let crateFields: [Field<CrateSpec>] = [
        ("center", true, { $0.center.x += 2 }), ("shape", true, { $0.shape = .box(size: Vec2(10, 12)) }), ("angle", true, { $0.angle = 0.25 }),
        ("velocity", true, { $0.velocity = Vec2(3, 0) }), ("angularVelocity", true, { $0.angularVelocity = 1 }), ("mass", true, { $0.mass = 2 }),
        ("friction", true, { $0.friction = 0.25 }), ("elasticity", true, { $0.elasticity = 0.5 }),
        ("collision", true, { $0.collision.filter.group = 3 }), ("color", false, { $0.color = RGB(10, 20, 30) }),
        ("bodyType", true, { ($0.bodyType, $0.mass) = (.kinematic, .infinity) }), ("rules", true, { $0.rules.surfaceVelocity = Vec2(5, 0) }),
    ]
    static let wallFields: [Field<WallSpec>] = [
        ("geometry", true, { $0.geometry = .segment(from: Vec2(0, 1), to: Vec2(100, 0)) }), ("radius", true, { $0.radius = 2 }),
        ("friction", true, { $0.friction = 0.25 }), ("elasticity", true, { $0.elasticity = 0.5 }),
        ("collision", true, { $0.collision.sensor = true }), ("color", false, { $0.color = RGB(10, 20, 30) }),
        ("rules", true, { $0.rules.oneWay = Vec2(0, 1) }),
    ]
    static let jointFields: [Field<JointSettings>] = [
        ("maxForce", true, { $0.maxForce = 1000 }), ("maxBias", true, { $0.maxBias = 50 }), ("errorBias", true, { $0.errorBias = 0.01 }),
        ("collideBodies", true, { $0.collideBodies.toggle() }), ("breakImpulse", true, { $0.breakImpulse = 1e6 }),
        ("breakForce", true, { $0.breakForce = 1e6 }),
    ]

    static func names<Part>(of value: Part) -> [String] { Mirror(reflecting: value).children.map { $0.label ?? "?" } }

    @Test func theTablesListEveryField() throws {
        let scene = try Repository.scene("bridge")
        #expect(Self.names(of: scene.crates[0]) == Self.crateFields.map(\.name))
        #expect(Self.names(of: scene.walls[0]) == Self.wallFields.map(\.name))
        #expect(Self.names(of: scene.joints[0].settings) == Self.jointFields.map(\.name))
    }

    @Test func theSpecLineCarriesEveryFieldThePhysicsReads() throws {
        let scene = try Repository.scene("bridge")
        let base = BaselineSpec.text(scene: scene)
        func check<Part>(_ fields: [Field<Part>], _ path: WritableKeyPath<Scene, Part>) {
            for field in fields {
                var changed = scene
                field.change(&changed[keyPath: path])
                #expect((BaselineSpec.text(scene: changed) != base) == field.physics,
                        "\(Part.self).\(field.name): the C spec \(field.physics ? "misses" : "carries") it")
            }
        }
        check(Self.crateFields, \.crates[0])
        check(Self.wallFields, \.walls[0])
        check(Self.jointFields, \.joints[0].settings)
    }
}
