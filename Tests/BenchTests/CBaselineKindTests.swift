@testable import Bench
import CBaseline
import SceneModel
import TestSupport
import Testing

/// The C baseline (`Sources/CBaseline`) refuses a wall, crate, part, joint or input of a kind
/// `cbaseline.h` does not list, rather than making a box or a motor of it; and its numbering of
/// joint and input kinds is the Swift side's.
@Suite struct CBaselineKindTests {
    /// A kind no table lists.
    static let unknown: Int32 = 99

    static func config() -> cbaseline_config {
        var config = cbaseline_config()
        (config.gravity_y, config.iterations, config.step_rate) = (-900, 10, 60)
        return config
    }

    static func box() -> cbaseline_crate {
        var crate = cbaseline_crate()
        (crate.kind, crate.width, crate.height, crate.mass) = (Int32(CBASELINE_BOX), 10, 10, 1)
        crate.collision = cbaseline_collision(group: 0, categories: .max, mask: .max, sensor: 0)
        return crate
    }

    static func segmentWall() -> cbaseline_wall {
        var wall = cbaseline_wall()
        (wall.kind, wall.bx, wall.radius) = (Int32(CBASELINE_SEGMENT), 100, 1)
        wall.collision = cbaseline_collision(group: 0, categories: .max, mask: .max, sensor: 0)
        return wall
    }

    static func pin(_ a: Int32, _ b: Int32) -> cbaseline_joint {
        var joint = cbaseline_joint()
        (joint.kind, joint.a, joint.b) = (Int32(CBASELINE_JOINT_PIN), a, b)
        (joint.max_force, joint.max_bias, joint.error_bias, joint.collide_bodies) = (.nan, .nan, .nan, 1)
        return joint
    }

    /// Builds a world of one wall, two crates and one joint with one of them made unknown; nil
    /// when the C baseline refuses it.
    static func create(unknown what: String) -> OpaquePointer? {
        var config = config()
        var walls = [segmentWall()], crates = [box(), box()], joints = [pin(0, 1)]
        var part = cbaseline_part()
        (part.kind, part.width, part.height, part.mass) = (unknown, 5, 5, 1)
        return withUnsafePointer(to: part) { partPointer in
            switch what {
            case "wall": walls[0].kind = unknown
            case "crate": crates[1].kind = unknown
            case "part": (crates[1].kind, crates[1].parts, crates[1].part_count) = (Int32(CBASELINE_COMPOUND), partPointer, 1)
            case "joint": joints[0].kind = unknown
            default: break
            }
            return cbaseline_create(&config, walls, 1, crates, 2, joints, 1)
        }
    }

    @Test(arguments: ["wall", "crate", "part", "joint"])
    func aSceneWithAnUnknownKindIsRefusedWhole(what: String) {
        #expect(Self.create(unknown: what) == nil, "a \(what) of unknown kind was made as something else")
    }

    @Test func theSameSceneOfKnownKindsIsMade() throws {
        let world = try #require(Self.create(unknown: "nothing"))
        defer { cbaseline_destroy(world) }
        #expect(cbaseline_crate_count(world) == 2)
    }

    @Test func changesOfUnknownKindsAreRefusedAndUseUpNoIndex() throws {
        var config = Self.config()
        let world = try #require(cbaseline_create(&config, nil, 0, nil, 0, nil, 0))
        defer { cbaseline_destroy(world) }
        var crate = Self.box()
        crate.kind = Self.unknown
        #expect(cbaseline_add_crate(world, &crate) == CBASELINE_UNKNOWN_KIND)
        #expect(cbaseline_spawn(world, 0, &crate) == CBASELINE_UNKNOWN_KIND)
        var wall = Self.segmentWall()
        wall.kind = Int32(CBASELINE_BOX)
        #expect(cbaseline_add_wall(world, &wall) == CBASELINE_UNKNOWN_KIND)
        var known = Self.box()
        #expect(cbaseline_add_crate(world, &known) == 0)
        #expect(cbaseline_add_crate(world, &known) == 1)
        var joint = Self.pin(0, 1)
        joint.kind = Self.unknown
        #expect(cbaseline_add_joint(world, &joint, nil) == CBASELINE_UNKNOWN_KIND)
        joint.kind = Int32(CBASELINE_JOINT_SIMPLE_MOTOR)
        #expect(cbaseline_add_joint(world, &joint, nil) == 0)
        cbaseline_step(world, 2)
        #expect(cbaseline_crate_count(world) == 2)
    }

    /// One of every joint kind (a pivot by a point and by two anchors are two kinds here).
    static let everyJointKind: [JointKind] = [
        .pin(anchorA: .zero, anchorB: .zero), .slide(anchorA: .zero, anchorB: .zero, min: 0, max: 1), .pivot(point: .zero),
        .pivotAnchors(anchorA: .zero, anchorB: .zero), .groove(grooveA: .zero, grooveB: Vec2(1, 0), anchorB: .zero),
        .dampedSpring(anchorA: .zero, anchorB: .zero, restLength: 1, stiffness: 1, damping: 1),
        .dampedRotarySpring(restAngle: 0, stiffness: 1, damping: 1), .rotaryLimit(min: 0, max: 1), .ratchet(phase: 0, ratchet: 1),
        .gear(phase: 0, ratio: 1), .simpleMotor(rate: 1),
    ]

    @Test func theListHoldsEveryJointKind() {
        #expect(Set(Self.everyJointKind.map(\.name.rawValue)) == Set(JointKind.Name.allCases.map(\.rawValue)))
        #expect(Set(Self.everyJointKind.map(\.number)).count == Self.everyJointKind.count)
    }

    @Test(arguments: everyJointKind)
    func aJointKindsNumberIsTheCHeaders(kind: JointKind) {
        // JointKind.number (fingerprints, saved states' make-up) and cbaseline.h's CBASELINE_JOINT_* agree.
        #expect(BaselineScene.jointKind(kind) == Int32(kind.number))
    }

    @Test func inputKindsAreTheCHeadersAndTheHarnessReadsThem() throws {
        let inputs: [(BodyInput, Int32)] = [
            (.impulse(Vec2(1, 0), at: nil), Int32(CBASELINE_INPUT_IMPULSE)), (.velocity(.zero), Int32(CBASELINE_INPUT_VELOCITY)),
            (.angularVelocity(1), Int32(CBASELINE_INPUT_ANGULAR_VELOCITY)),
            (.hold(force: .zero, at: nil, torque: 0, steps: 2), Int32(CBASELINE_INPUT_HOLD)),
            (.grab(at: .zero, maxForce: nil), Int32(CBASELINE_INPUT_GRAB)), (.dragTo(.zero), Int32(CBASELINE_INPUT_DRAG_TO)),
            (.release, Int32(CBASELINE_INPUT_RELEASE)),
        ]
        #expect(Set(inputs.map(\.1)) == Set(0..<Int32(CBASELINE_INPUT_KIND_COUNT)))
        let scene = try Repository.scene("book")
        let text = BaselineSpec.text(scene: scene, inputs: inputs.enumerated().map { (step: $0.offset, action: .body(BodyID(1), $0.element.0)) })
        let written = text.split(separator: "\n").filter { $0.hasPrefix("input ") }.map { Int32($0.split(separator: " ")[2])! }
        #expect(written == inputs.map(\.1))
        for (input, number) in inputs { #expect(BaselineScene.inputKind(input) == number) }
    }

    @Test func vertexStorageCountsEveryShapeKind() {
        let square = [Vec2(0, 0), Vec2(1, 0), Vec2(1, 1), Vec2(0, 1)]
        #expect(BaselineScene.storedVertices(BodyShape.polygon(vertices: square, radius: 0)) == 4)
        #expect(BaselineScene.storedVertices(BodyShape.box(size: Vec2(1, 1))) == 0)
        #expect(BaselineScene.storedVertices(WallGeometry.polygon(vertices: square)) == 4)
        #expect(BaselineScene.storedVertices(WallGeometry.segment(from: .zero, to: Vec2(1, 0))) == 0)
    }
}
