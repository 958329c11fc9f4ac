#if canImport(Glibc)
import Glibc
#endif
import SceneModel
import Testing

@Suite struct WallOverlapsTests {
    static func depth(_ crate: CrateSpec, _ wall: WallSpec) -> Double? {
        WallOverlaps.check(bodies: [crate], walls: [wall]).overlaps.first?.depth
    }

    static let floor = WallSpec(from: Vec2(0, 0), to: Vec2(100, 0), radius: 2)

    @Test(arguments: [
        (12.0, nil),          // 2 px above the wall's surface
        (10.0, nil),          // resting on its surface: touching is not overlapping
        (9.95, nil),          // within Chipmunk's slop
        (9.0, 1.0),           // 1 px into the rounded thickness
        (5.0, 5.0),           // across the centre line: 3 px below it, and the radius
        (-5.0, 5.0),          // the same from below
        (-13.0, nil),         // below, clear
    ] as [(Double, Double?)])
    func aBoxAboveAFloorOverlapsByHowFarItReachesIntoIt(y: Double, expected: Double?) throws {
        let found = Self.depth(CrateSpec(center: Vec2(50, y), size: Vec2(16, 16), mass: 1), Self.floor)
        if let expected { #expect(abs(try #require(found) - expected) < 1e-9) } else { #expect(found == nil) }
    }

    @Test func theWallsRoundedEndCountsBeyondItsEndPoints() {
        // Beside the floor's right end: 1.5 px from the end point, within the radius of 2.
        #expect(Self.depth(CrateSpec(center: Vec2(109.5, 0), size: Vec2(16, 16), mass: 1), Self.floor).map { abs($0 - 0.5) < 1e-9 } == true)
        // Diagonally off the end: the corner (108, 8) is sqrt(64 + 64) px from (100, 0).
        #expect(Self.depth(CrateSpec(center: Vec2(116, 16), size: Vec2(16, 16), mass: 1), Self.floor) == nil)
    }

    @Test func aThinWallThroughABoxIsAcross() {
        let wall = WallSpec(from: Vec2(0, 0), to: Vec2(100, 100), radius: 0)
        let report = WallOverlaps.check(bodies: [CrateSpec(center: Vec2(50, 52), size: Vec2(10, 10), mass: 1)], walls: [wall])
        #expect(report.overlaps.count == 1 && report.overlaps[0].across)
        // The same box well off the diagonal, though its bounding box meets the wall's.
        #expect(WallOverlaps.check(bodies: [CrateSpec(center: Vec2(40, 60), size: Vec2(10, 10), mass: 1)], walls: [wall]).overlaps.isEmpty)
    }

    /// The exact depth agrees with a brute-force one (the least distance from 2001 points along
    /// the segment to the box, measured exactly in the box's frame) on random boxes and walls.
    @Test func depthAgreesWithSamplingOnRandomBoxesAndWalls() {
        var random = SplitMix64(seed: 22)
        var compared = 0
        for _ in 0..<3000 {
            let crate = CrateSpec(center: Vec2(random.next(in: 0...100), random.next(in: 0...100)),
                                  size: Vec2(random.next(in: 1...40), random.next(in: 1...40)), angle: random.next(in: 0...6.3), mass: 1)
            let from = Vec2(random.next(in: 0...100), random.next(in: 0...100)), to = Vec2(random.next(in: 0...100), random.next(in: 0...100))
            let wall = WallSpec(from: from, to: to, radius: random.next(in: 0...8))
            let (c, s) = (cos(crate.angle), sin(crate.angle))
            var distance = Double.infinity
            for k in 0...2000 {
                let t = Double(k) / 2000
                let p = from + (to - from) * t - crate.center
                let local = Vec2(p.x * c + p.y * s, -p.x * s + p.y * c)
                distance = min(distance, Vec2(max(abs(local.x) - crate.size.x / 2, 0), max(abs(local.y) - crate.size.y / 2, 0)).length)
            }
            let found = Self.depth(crate, wall)
            let step = (to - from).length / 2000
            if distance > step {
                // Apart from the segment: depth is the radius less the distance, when over the slop.
                let expected = wall.radius - distance
                if expected > WallOverlaps.slop + step { #expect(found.map { abs($0 - expected) <= step } == true, "\(crate) \(wall)") }
                if expected < WallOverlaps.slop - step { #expect(found == nil, "\(crate) \(wall)") }
                compared += 1
            } else if distance == 0, wall.radius > WallOverlaps.slop {
                // The segment enters the box: reported, at least as deep as the radius.
                #expect(found.map { $0 >= wall.radius } == true, "\(crate) \(wall)")
                compared += 1
            }
        }
        #expect(compared > 2500)
    }

    @Test func tooManyPairsGiveUpInsteadOfTakingMinutes() {
        let crates = Array(repeating: CrateSpec(center: Vec2(50, 50), size: Vec2(1, 1), mass: 1), count: 20_001)
        let walls = Array(repeating: Self.floor, count: 1000)
        #expect(WallOverlaps.check(bodies: crates, walls: walls).gaveUp)
    }
}
