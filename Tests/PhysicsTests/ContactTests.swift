import Physics
import SceneModel
import Testing

/// Contacts, energy and sleep as Physics copies them out of Chipmunk.
@Suite struct ContactTests {
    /// One crate resting on the floor: one pair, two points on the floor line, normals vertical.
    @Test func aRestingCrateTouchesTheFloorAtTwoPoints() throws {
        let world = try World(gravity: Vec2(0, -1000))
        try world.addWall(WallSpec(from: Vec2(0, 0), to: Vec2(200, 0), radius: 1, friction: 0.8, elasticity: 0))
        try world.addCrate(CrateSpec(center: Vec2(100, 11), size: Vec2(20, 20), mass: 1, friction: 0.8, elasticity: 0))
        for _ in 0..<240 { world.step() }
        let counts = world.contactCounts()
        #expect(counts.pairs == 1 && counts.points == 2)
        let points = world.contactPoints()
        #expect(points.count == 2)
        for point in points {
            #expect(abs(point.position.y - 1) < 0.5 && abs(abs(point.position.x - 100) - 10) < 0.5)
            #expect(point.normal == Vec2(0, 1) || abs(point.normal.y - 1) < 1e-9)
        }
        #expect(world.kineticEnergy < 1e-3)
        #expect(world.snapshot().contacts.isEmpty)
        world.snapshotsIncludeContacts = true
        #expect(world.snapshot().contacts == points)
    }

    /// Two crates side by side touching: their pair counts once.
    @Test func aPairOfCratesCountsOnce() throws {
        let world = try World(gravity: Vec2(0, 0))
        try world.addCrate(CrateSpec(center: Vec2(50, 50), size: Vec2(20, 20), mass: 1, friction: 0.5, elasticity: 0))
        try world.addCrate(CrateSpec(center: Vec2(69.9, 50), size: Vec2(20, 20), mass: 1, friction: 0.5, elasticity: 0))
        world.step()
        #expect(world.contactCounts().pairs == 1)
        #expect(world.awakeCrateCount == 2)
    }

    /// Crates resting on a tumbler's (kinematic) floor: Chipmunk lists each pair under both
    /// bodies; every pair still counts once, and every point is listed once.
    @Test func pairsWithATumblerCountOnce() throws {
        let world = try World(gravity: Vec2(0, -1000))
        try world.addTumbler(TumblerSpec(center: Vec2(200, 200), size: Vec2(300, 300), angularVelocity: 0, radius: 2,
                                         friction: 0.8, elasticity: 0))
        for i in 0..<8 {
            try world.addCrate(CrateSpec(center: Vec2(80 + 30 * Double(i), 63), size: Vec2(20, 20), mass: 1, friction: 0.8,
                                         elasticity: 0))
        }
        for _ in 0..<240 { world.step() }
        let counts = world.contactCounts()
        #expect(counts.pairs == 8 && counts.points == 16)
        let points = world.contactPoints()
        #expect(points.count == 16)
        #expect(Set(points.map { [$0.position.x, $0.position.y] }).count == 16)
    }

    @Test func kineticEnergyIsHalfMassTimesSpeedSquared() throws {
        let world = try World(gravity: Vec2(0, 0))
        try world.addCrate(CrateSpec(center: Vec2(50, 50), size: Vec2(10, 10), velocity: Vec2(3, 4), mass: 2, friction: 0.5, elasticity: 0))
        #expect(abs(world.kineticEnergy - 25) < 1e-9)
    }
}
