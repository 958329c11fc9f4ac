import Physics
import SceneModel
import Testing

/// Bodies of several parts: Chipmunk's accumulated mass, centre of gravity and moment against
/// values worked out here by hand.
@Suite(.timeLimit(.minutes(3)))
struct CompoundBodyTests {
    /// An L of two boxes (the foot turned a quarter turn) and a circle: every part off the origin.
    static let parts = [
        BodyPart(shape: .box(size: Vec2(60, 20)), offset: Vec2(0, 0), mass: 3),
        BodyPart(shape: .box(size: Vec2(40, 20)), offset: Vec2(-20, 30), angle: Double.pi / 2, mass: 2),
        BodyPart(shape: .circle(radius: 10), offset: Vec2(30, 15), mass: 1),
    ]

    @Test func aCompoundBodysMassCentreOfGravityAndMomentAreItsPartsByTheParallelAxisTheorem() throws {
        let world = try World(gravity: Vec2(0, -1000))
        let center = Vec2(200, 150)
        let crate = try world.addCrate(CrateSpec(center: center, shape: .compound(parts: Self.parts), angle: 0.3, mass: 6))

        // By hand: each part's own moment about its centre (a box m(w² + h²)/12, turning it
        // changes nothing; a disc mr²/2), moved to the common centre by m·d².
        let masses = [3.0, 2, 1], centres = [Vec2(0, 0), Vec2(-20, 30), Vec2(30, 15)]
        let own: [Double] = [3.0 * 4000 / 12, 2.0 * 2000 / 12, 1.0 * 100 / 2]
        var mass = 0.0, weighted = Vec2.zero
        for i in 0..<3 {
            mass += masses[i]
            weighted = weighted + centres[i] * masses[i]
        }
        let cog = Vec2(weighted.x / mass, weighted.y / mass)
        var moment = 0.0
        for i in 0..<3 {
            let d = (centres[i] - cog).length
            moment += own[i] + masses[i] * d * d
        }

        let chipmunk = crate.massProperties
        #expect(chipmunk.mass == mass)
        #expect(abs(chipmunk.centerOfGravity.x - cog.x) < 1e-12 && abs(chipmunk.centerOfGravity.y - cog.y) < 1e-12,
                "\(chipmunk.centerOfGravity) vs \(cog)")
        #expect(abs(chipmunk.moment - moment) < 1e-9 * moment, "\(chipmunk.moment) vs \(moment)")
        // The body's position stays its origin (center), not its centre of gravity.
        #expect((crate.state.position - center).length < 1e-9)
    }

    @Test func aSimpleBodyWrittenAsOnePartAtTheOriginHasTheSameMassAndMoment() throws {
        let world = try World(gravity: Vec2(0, -1000))
        let plain = try world.addCrate(CrateSpec(center: Vec2(100, 100), size: Vec2(30, 20), mass: 5))
        let onePart = try world.addCrate(CrateSpec(center: Vec2(200, 100), shape: .compound(parts: [BodyPart(shape: .box(size: Vec2(30, 20)), mass: 5)]),
                                                   mass: 5))
        #expect(onePart.massProperties.mass == plain.massProperties.mass)
        #expect(abs(onePart.massProperties.moment - plain.massProperties.moment) < 1e-9 * plain.massProperties.moment)
        #expect(onePart.massProperties.centerOfGravity == Vec2(0, 0))
    }

    @Test func aCompoundBodyFallsAndTurnsAsOneAndTheSameSceneRunsAlikeTwice() throws {
        func run() throws -> [BodyState] {
            let scene = Scene(name: "l", worldSize: Vec2(400, 300), gravity: Vec2(0, -1000), bounds: BoundsWalls(radius: 2),
                              crates: [CrateSpec(center: Vec2(200, 150), shape: .compound(parts: Self.parts), angle: 0.3, mass: 6)])
            let world = try World(scene: scene)
            for _ in 0..<240 { world.step() }
            return world.snapshot().bodies
        }
        let first = try run(), second = try run()
        #expect(first == second)
        #expect(first[0].position.y < 60, "the body fell to the floor: \(first[0].position)")
    }

    /// A query names the body and the part it met; a body of one shape and a wall name no part.
    @Test func aQueryHitNamesTheBodyAndThePart() throws {
        let world = try World(gravity: Vec2(0, -1000))
        _ = try world.addCrate(CrateSpec(center: Vec2(200, 150), shape: .compound(parts: Self.parts), mass: 6))
        _ = try world.addCrate(CrateSpec(center: Vec2(400, 150), size: Vec2(20, 20), mass: 1))
        // The circle (part 2) is centred at [230, 165]; the foot (part 1) at [180, 180].
        let onCircle = try world.query(point: Vec2(232, 166))
        #expect(onCircle.map(\.party) == [.body(BodyID(1))] && onCircle.map(\.part) == [2], "\(onCircle)")
        let onFoot = try world.query(point: Vec2(180, 190))
        #expect(onFoot.map(\.part) == [1], "\(onFoot)")
        // A ray along y = 150 from the left meets the bar (part 0) first, then the plain box.
        let hits = try world.query(segmentFrom: Vec2(0, 150), to: Vec2(500, 150))
        #expect(hits.map(\.party) == [.body(BodyID(1)), .body(BodyID(2))] && hits.map(\.part) == [0, nil], "\(hits)")
        #expect(try world.firstHit(from: Vec2(230, 300), to: Vec2(230, 0))?.part == 2)
    }

    @Test func aCompoundBodysMassIsRefusedWhenItsPartsAddUpToZeroOrItHasNoParts() {
        let zero = CrateSpec(center: Vec2(50, 50), shape: .compound(parts: [BodyPart(shape: .circle(radius: 5), mass: 0)]), mass: 0)
        #expect(zero.problems().map(\.field).contains("shapes"))
        let empty = CrateSpec(center: Vec2(50, 50), shape: .compound(parts: []), mass: 1)
        #expect(empty.problems().map(\.field) == ["shapes"])
        let tooMany = CrateSpec(center: Vec2(50, 50), shape: .compound(parts: Array(repeating: Self.parts[2], count: 65)), mass: 65)
        #expect(tooMany.problems().map(\.field) == ["shapes"])
        let kinematic = CrateSpec.kinematic(center: Vec2(50, 50), shape: .compound(parts: [Self.parts[0]]))
        #expect(kinematic.problems().map(\.field) == ["body_type"])
        #expect(throws: PhysicsError.self) { try Crate(kinematic) }
        let negative = CrateSpec(center: Vec2(50, 50), shape: .compound(parts: [BodyPart(shape: .circle(radius: 5), mass: -1)]), mass: 1)
        #expect(negative.problems().map(\.field).contains("shapes[0].mass"))
    }
}
