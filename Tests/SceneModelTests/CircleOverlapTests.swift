import SceneModel
import Testing

/// Exact overlap tests for circles: circle-circle, circle-box (`CrateOverlaps`) and circle-wall (`WallOverlaps`).
@Suite struct CircleOverlapTests {
    static func circle(_ x: Double, _ y: Double, _ r: Double) -> CrateSpec {
        CrateSpec(center: Vec2(x, y), shape: .circle(radius: r), mass: 1, friction: 0.5, elasticity: 0)
    }

    static func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double, angle: Double = 0) -> CrateSpec {
        CrateSpec(center: Vec2(x, y), shape: .box(size: Vec2(w, h)), angle: angle, mass: 1, friction: 0.5, elasticity: 0)
    }

    /// Pairs overlapping, counted with no crowding allowed.
    static func overlappingPairs(_ crates: [CrateSpec]) -> Int { CrateOverlaps.check(crates, limit: 0).overlappingPairs }

    @Test func circlesOverlapWhenCloserThanTheirRadii() {
        #expect(Self.overlappingPairs([Self.circle(0, 0, 5), Self.circle(9.9, 0, 5)]) == 1)
        #expect(Self.overlappingPairs([Self.circle(0, 0, 5), Self.circle(10, 0, 5)]) == 0)
        // Bounding squares overlapping at the corner, discs apart: 7.07 + 7.07 < 10√2·… no contact.
        #expect(Self.overlappingPairs([Self.circle(0, 0, 5), Self.circle(7.5, 7.5, 5)]) == 0)
    }

    @Test func aCircleAndABoxOverlapByTheBoxsTrueCorner() {
        // The box's corner at (5, 5); a circle of radius 5 centred at (9, 9) is 5.66 from it: apart.
        #expect(Self.overlappingPairs([Self.box(0, 0, 10, 10), Self.circle(9, 9, 5)]) == 0)
        // Centred at (8, 8), 4.24 from the corner: overlapping.
        #expect(Self.overlappingPairs([Self.box(0, 0, 10, 10), Self.circle(8, 8, 5)]) == 1)
        // Along a side: the face at x = 5, the circle reaching 4.9.
        #expect(Self.overlappingPairs([Self.box(0, 0, 10, 10), Self.circle(9.9, 0, 5)]) == 1)
        #expect(Self.overlappingPairs([Self.box(0, 0, 10, 10), Self.circle(10.1, 0, 5)]) == 0)
        // A circle wholly inside a box overlaps it.
        #expect(Self.overlappingPairs([Self.box(0, 0, 40, 40), Self.circle(0, 0, 3)]) == 1)
        // A box turned 45°: its corner reaches x = 7.07; a circle from x = 7.2 stays clear.
        #expect(Self.overlappingPairs([Self.box(0, 0, 10, 10, angle: .pi / 4), Self.circle(12.2, 0, 5)]) == 0)
        #expect(Self.overlappingPairs([Self.box(0, 0, 10, 10, angle: .pi / 4), Self.circle(12, 0, 5)]) == 1)
    }

    @Test func aCircleOverlapsAWallByItsDistanceFromTheSegment() {
        let wall = WallSpec(from: Vec2(0, 0), to: Vec2(100, 0), radius: 2, friction: 0.5, elasticity: 0)
        let reaching = WallOverlaps.check(bodies: [Self.circle(50, 6.5, 5)], walls: [wall]).overlaps
        #expect(reaching.count == 1 && abs(reaching[0].depth - 0.5) < 1e-12 && !reaching[0].across)
        #expect(WallOverlaps.check(bodies: [Self.circle(50, 7.05, 5)], walls: [wall]).overlaps.isEmpty)
        // Past the segment's end, the distance is to its end point.
        #expect(WallOverlaps.check(bodies: [Self.circle(105, 5, 5)], walls: [wall]).overlaps.isEmpty)
        let across = WallOverlaps.check(bodies: [Self.circle(50, 1, 5)], walls: [wall]).overlaps
        #expect(across.count == 1 && across[0].across)
    }
}
