import Physics
import SceneModel
import TestSupport
import Testing

/// Point, segment (ray) and box queries: what is where, named by id, in a fixed order, and
/// nothing unchecked reaching Chipmunk.
@Suite struct QueryTests {
    /// A floor (wall 0), and two boxes on it at x 100 (id 1) and 200 (id 2).
    static func world() throws -> World {
        let world = try World(gravity: Vec2(0, -1000))
        try world.addWall(WallSpec(from: Vec2(0, 0), to: Vec2(400, 0), radius: 1))
        try world.addCrate(CrateSpec(center: Vec2(100, 11), size: Vec2(20, 20), mass: 1))
        try world.addCrate(CrateSpec(center: Vec2(200, 11), size: Vec2(20, 20), mass: 1))
        return world
    }

    @Test func aPointQueryNamesWhatContainsOrIsNearThePoint() throws {
        let world = try Self.world()
        #expect(try world.query(point: Vec2(102, 12)).map(\.party) == [.body(BodyID(1))])
        #expect(try world.query(point: Vec2(150, 50)).isEmpty)
        // The floor 10 px below (its radius, 1, off the 11), then both boxes 40 px away, tied: by id.
        let near = try world.query(point: Vec2(150, 11), within: 45)
        #expect(near.map(\.party) == [.wall(0), .body(BodyID(1)), .body(BodyID(2))])
        #expect(abs(near[0].distance - 10) < 1e-9 && abs(near[1].distance - 40) < 1e-9 && near[1].distance == near[2].distance)
        let inside = try world.query(point: Vec2(100, 11))[0]
        #expect(inside.distance < 0, "negative inside: \(inside)")
    }

    @Test func aRayFindsTheFirstShapeAndASegmentAllOfThem() throws {
        let world = try Self.world()
        let first = try world.firstHit(from: Vec2(0, 11), to: Vec2(400, 11))
        #expect(first?.party == .body(BodyID(1)) && abs(first!.point.x - 90) < 1e-9 && first!.normal == Vec2(-1, 0), "\(String(describing: first))")
        let all = try world.query(segmentFrom: Vec2(0, 11), to: Vec2(400, 11))
        #expect(all.map(\.party) == [.body(BodyID(1)), .body(BodyID(2))] && all[0].alpha < all[1].alpha)
        let down = try world.firstHit(from: Vec2(300, 100), to: Vec2(300, -100))
        #expect(down?.party == .wall(0))
        #expect(try world.firstHit(from: Vec2(300, 100), to: Vec2(300, 50)) == nil)
    }

    /// Chipmunk's trees prune a segment query by the thin segment's box, whatever its radius
    /// (audit round 5, finding 9: radius 1000 over the book world found 6 of its 9 shapes).
    @Test func aThickSegmentMeetsEveryShapeWithinItsRadius() throws {
        let world = try World(scene: Repository.scene("book"))
        // Across the world at mid-height: the thin line crosses only the side walls' boxes.
        let everything = try world.query(segmentFrom: Vec2(-1500, 150), to: Vec2(1800, 150), radius: 1000)
        #expect(Set(everything.map(\.party)) == Set((1...5).map { ContactParty.body(BodyID(UInt64($0))) } + (0..<4).map { .wall($0) }),
                "\(everything.map(\.party))")
        #expect(everything.map(\.party) == everything.sorted { ($0.alpha, $0.party) < ($1.alpha, $1.party) }.map(\.party))
        // Only the right wall (x 300, radius 1) is within 60 px of this segment, and its box is off the thin line's.
        let right = try world.query(segmentFrom: Vec2(200, 150), to: Vec2(250, 150), radius: 60)
        #expect(right.count == 1, "\(right)")
        let first = try world.firstHit(from: Vec2(200, 150), to: Vec2(250, 150), radius: 60)
        #expect(first != nil && first == right.first, "\(String(describing: first))")
        #expect(try world.firstHit(from: Vec2(-1500, 150), to: Vec2(1800, 150), radius: 1000) == everything.first)
    }

    /// A thin segment goes through Chipmunk's own query, as before: the row of small crates and both side walls.
    @Test func aThinSegmentMeetsWhatItCrosses() throws {
        let world = try World(scene: Repository.scene("book"))
        let row = try world.query(segmentFrom: Vec2(0, 284), to: Vec2(300, 284))
        #expect(row.filter { if case .body = $0.party { true } else { false } }.map(\.party) == (1...4).map { .body(BodyID(UInt64($0))) })
        #expect(row.count == 6 && row.map(\.alpha) == row.map(\.alpha).sorted(), "\(row)")
    }

    @Test func aBoxQueryNamesBodiesByIdThenWalls() throws {
        let world = try Self.world()
        #expect(try world.query(boxFrom: Vec2(0, -5), to: Vec2(400, 30)) == [.body(BodyID(1)), .body(BodyID(2)), .wall(0)])
        #expect(try world.query(boxFrom: Vec2(180, 5), to: Vec2(220, 30)) == [.body(BodyID(2))])
    }

    @Test func badQueriesAreRefused() throws {
        let world = try Self.world()
        #expect(throws: PhysicsError.self) { try world.query(point: Vec2(.nan, 0)) }
        #expect(throws: PhysicsError.self) { try world.query(point: .zero, within: -1) }
        #expect(throws: PhysicsError.self) { try world.firstHit(from: .zero, to: Vec2(1e9, 0)) }
        #expect(throws: PhysicsError.self) { try world.query(segmentFrom: .zero, to: Vec2(1, 1), radius: .infinity) }
        #expect(throws: PhysicsError.self) { try world.query(boxFrom: Vec2(10, 10), to: Vec2(0, 0)) }
    }
}
