import SceneModel
import Testing

/// The overlap geometry every shape shares: gaps between separate outlines are their true
/// distances, overlaps are the least push along a side's normal, radii grow both.
@Suite struct ConvexOutlineTests {
    static let square = ConvexOutline(points: [Vec2(0, 0), Vec2(10, 0), Vec2(10, 10), Vec2(0, 10)], radius: 0)

    static func moved(_ outline: ConvexOutline, _ by: Vec2) -> ConvexOutline { outline.placed(at: by, angle: 0) }

    @Test func separateShapesGiveTheirDistance() {
        // Corner to corner: the Euclidean distance, not the largest gap along an axis.
        #expect(abs(Self.square.separation(Self.moved(Self.square, Vec2(13, 14))) - 5) < 1e-12)
        let triangle = ConvexOutline(points: [Vec2(0, 0), Vec2(4, 0), Vec2(0, 4)], radius: 1)
        #expect(abs(Self.square.separation(Self.moved(triangle, Vec2(12, 0))) - 1) < 1e-12)
        let disc = ConvexOutline(points: [.zero], radius: 2)
        #expect(abs(Self.square.separation(Self.moved(disc, Vec2(5, 15))) - 3) < 1e-12)
    }

    @Test func overlapsGiveTheLeastPush() {
        #expect(abs(Self.square.separation(Self.moved(Self.square, Vec2(7, 2))) + 3) < 1e-12)
        let segment = ConvexOutline(points: [Vec2(-20, 0), Vec2(20, 0)], radius: 1)
        // A segment through the square's middle: half the square plus the segment's radius.
        #expect(abs(Self.square.separation(Self.moved(segment, Vec2(5, 5))) + 6) < 1e-12)
        // Touching is not overlapping.
        #expect(Self.square.separation(Self.moved(Self.square, Vec2(10, 0))) == 0)
    }

    @Test func aBoxOutlineMatchesTheBoxesOwnOverlapTest() {
        // The crowding check gives boxes and polygons of the same corners the same answer.
        let box = CrateSpec(center: Vec2(50, 50), size: Vec2(10, 10), angle: 0.3, mass: 1)
        let polygon = CrateSpec(center: Vec2(50, 50), shape: .polygon(vertices: BodyShape.box(size: Vec2(10, 10)).outline.points, radius: 0),
                                angle: 0.3, mass: 1)
        let others = (0..<9).map { CrateSpec(center: Vec2(46 + Double($0), 50), size: Vec2(4, 4), mass: 1) }
        #expect(CrateOverlaps.check([box] + others).crowded.map(\.index) == CrateOverlaps.check([polygon] + others).crowded.map(\.index))
        #expect(CrateOverlaps.check([polygon] + others).crowded.first?.index == 0)
    }

    @Test func aPolygonAcrossAWallIsReported() {
        let wedge = WallSpec(geometry: .polygon(vertices: [Vec2(0, 0), Vec2(40, 0), Vec2(0, 40)]), radius: 0)
        let inside = CrateSpec(center: Vec2(10, 10), shape: .polygon(vertices: [Vec2(-3, -3), Vec2(3, -3), Vec2(0, 3)], radius: 0), mass: 1)
        let outside = CrateSpec(center: Vec2(40, 40), shape: .segment(a: Vec2(-5, 0), b: Vec2(5, 0), radius: 1), mass: 1)
        let report = WallOverlaps.check(bodies: [inside, outside], walls: [wedge])
        #expect(report.overlaps.map(\.body) == [0] && report.overlaps.first?.across == true)
    }
}
