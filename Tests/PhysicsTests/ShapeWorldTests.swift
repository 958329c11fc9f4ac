import Physics
import SceneModel
import Testing

/// Polygons, segments, polygon walls, filters and sensors in a world: built as the scene says,
/// colliding as Chipmunk's filters and sensors say, and told apart by the world's fingerprint.
@Suite struct ShapeWorldTests {
    static func fall(onto wall: WallSpec, _ body: CrateSpec, steps: Int = 240) throws -> BodyState {
        let world = try World(gravity: Vec2(0, -1000))
        try world.addWall(wall)
        try world.addCrate(body)
        for _ in 0..<steps { world.step() }
        return world.snapshot().bodies[0]
    }

    static let floor = WallSpec(from: Vec2(-500, 0), to: Vec2(500, 0), radius: 1)

    @Test func aPolygonAndASegmentComeToRestOnAFloor() throws {
        let triangle = try Self.fall(onto: Self.floor, CrateSpec(center: Vec2(0, 50), shape: .polygon(vertices: [Vec2(-10, -5), Vec2(10, -5), Vec2(0, 10)],
                                                                                                        radius: 0), mass: 1))
        #expect(abs(triangle.position.y - 6) < 0.2 && abs(triangle.velocity.y) < 1, "\(triangle)")
        let plank = try Self.fall(onto: Self.floor, CrateSpec(center: Vec2(0, 50), shape: .segment(a: Vec2(-20, 0), b: Vec2(20, 0), radius: 2), mass: 1))
        #expect(abs(plank.position.y - 3) < 0.2 && abs(plank.velocity.y) < 1, "\(plank)")
    }

    @Test func aRoundingRadiusHoldsAPolygonHigher() throws {
        let sharp = try Self.fall(onto: Self.floor, CrateSpec(center: Vec2(0, 50), shape: .polygon(vertices: [Vec2(-10, -5), Vec2(10, -5), Vec2(0, 10)],
                                                                                                     radius: 0), mass: 1))
        let round = try Self.fall(onto: Self.floor, CrateSpec(center: Vec2(0, 50), shape: .polygon(vertices: [Vec2(-10, -5), Vec2(10, -5), Vec2(0, 10)],
                                                                                                     radius: 3), mass: 1))
        #expect(abs((round.position.y - sharp.position.y) - 3) < 0.2)
    }

    @Test func aPolygonWallIsARamp() throws {
        let ramp = WallSpec(geometry: .polygon(vertices: [Vec2(-100, 0), Vec2(100, 0), Vec2(-100, 100)]), radius: 0, friction: 0)
        let slid = try Self.fall(onto: ramp, CrateSpec(center: Vec2(-60, 90), size: Vec2(10, 10), angle: -0.4636, mass: 1, friction: 0), steps: 60)
        #expect(slid.position.x > -50 && slid.velocity.x > 100, "a box slides down the slope: \(slid)")
    }

    @Test func filtersAndSensorsDecideWhatCollides() throws {
        func dropped(_ collision: CollisionSettings, wall wallCollision: CollisionSettings = .standard) throws -> Double {
            var floor = Self.floor
            floor.collision = wallCollision
            return try Self.fall(onto: floor, CrateSpec(center: Vec2(0, 20), size: Vec2(10, 10), mass: 1, collision: collision), steps: 60).position.y
        }
        #expect(try dropped(.standard) > 0)
        // The wall's categories miss the box's mask, or the box is a sensor: it falls through.
        #expect(try dropped(CollisionSettings(filter: ShapeFilter(mask: 1)), wall: CollisionSettings(filter: ShapeFilter(categories: 2))) < -100)
        #expect(try dropped(CollisionSettings(sensor: true)) < -100)
        #expect(try dropped(.standard, wall: CollisionSettings(sensor: true)) < -100)
        // Both in one group: no collision.
        let group = CollisionSettings(filter: ShapeFilter(group: 3))
        #expect(try dropped(group, wall: group) < -100)
        #expect(try dropped(group, wall: CollisionSettings(filter: ShapeFilter(group: 4))) > 0)
    }

    @Test func theFingerprintTellsApartWhatItMustAndKeepsWhatItHad() throws {
        func fingerprint(_ crate: CrateSpec, wall: WallSpec = ShapeWorldTests.floor) throws -> UInt64 {
            let world = try World(gravity: Vec2(0, -10))
            try world.addWall(wall)
            try world.addCrate(crate)
            return world.fingerprint
        }
        let a = CrateSpec(center: .zero, shape: .polygon(vertices: [Vec2(-5, -5), Vec2(5, -5), Vec2(5, 5)], radius: 0), mass: 1)
        let b = CrateSpec(center: .zero, shape: .polygon(vertices: [Vec2(-5, -5), Vec2(5, -5), Vec2(-5, 5)], radius: 0), mass: 1)
        #expect(a.shape.boundingSize == b.shape.boundingSize)
        #expect(try fingerprint(a) != fingerprint(b))
        var filtered = a
        filtered.collision.filter.mask = 6
        #expect(try fingerprint(filtered) != fingerprint(a))
        let polygonWall = WallSpec(geometry: .polygon(vertices: [Vec2(0, 0), Vec2(10, 0), Vec2(0, 10)]), radius: 0)
        #expect(try fingerprint(a, wall: polygonWall) != fingerprint(a))
        // A box's and a segment wall's values are the ones fingerprints always had: kind 0, width,
        // height, mass, friction, elasticity (states saved before keep matching).
        #expect(BodyShape.box(size: Vec2(3, 4)).fingerprintValues == [0, 3, 4])
        #expect(BodyShape.circle(radius: 2).fingerprintValues == [1, 4, 4])
        #expect(WallGeometry.segment(from: Vec2(1, 2), to: Vec2(3, 4)).fingerprintValues == [1, 2, 3, 4])
        #expect(CollisionSettings.standard.fingerprintValues.isEmpty)
    }

    /// Shapes that pass through each other by their filters (one group) heaped on one spot, and a
    /// segment of radius 0 with boxes resting on it.
    static var ghosts: Scene {
        let ghost = CollisionSettings(filter: ShapeFilter(group: 1))
        var scene = Scene(name: "ghosts", worldSize: Vec2(200, 200), gravity: Vec2(0, -1000), bounds: BoundsWalls(radius: 1))
        scene.crates = (0..<40).map { _ in CrateSpec(center: Vec2(100, 20), shape: .circle(radius: 8), mass: 1, collision: ghost) }
        scene.crates.append(CrateSpec(center: Vec2(100, 120), shape: .segment(a: Vec2(-60, 0), b: Vec2(60, 0), radius: 0), mass: 5))
        scene.crates += (0..<9).map { CrateSpec(center: Vec2(50 + 12 * Double($0), 130), size: Vec2(10, 10), mass: 1) }
        return scene
    }

    /// Shapes that pass through each other by their filters (one group) may start heaped on one
    /// spot: no crowding refusal at the start.
    @Test func shapesThatPassThroughEachOtherMayHeapUp() throws {
        #expect(Self.ghosts.problems().isEmpty, "\(Self.ghosts.problems())")
    }

    /// Their saved state, resting so, restores from bytes (checked as a file's is).
    @Test(.needsSavedStates(World.canSaveState)) func shapesHeapedUpRestoreFromAState() throws {
        let scene = Self.ghosts
        let world = try World(scene: scene)
        for _ in 0..<120 { world.step() }
        let state = try world.saveState()
        let twin = try World(scene: scene)
        try twin.restore(WorldState(bytes: state.bytes))
        for _ in 0..<30 {
            world.step()
            twin.step()
        }
        #expect(twin.stateHash == world.stateHash)
    }
}
