#if canImport(Glibc)
import Glibc
#endif
import SceneModel
import Testing

/// The generator's circles, regular polygons and mixes: seeded as boxes are, within their sizes,
/// apart at the start, their masses density × area, and boxes exactly as before.
@Suite struct ShapeGeneratorTests {
    static func generator(_ shapes: PileGenerator.Shapes, sides: ClosedRange<Int> = 3...8) -> PileGenerator {
        PileGenerator(count: 400, seed: 11, minSize: 8, maxSize: 16, density: 0.01, gap: 1, shapes: shapes, sides: sides)
    }

    @Test(arguments: [PileGenerator.Shapes.circle, .polygon, .mix])
    func eachKindIsSeededWithinItsSizesAndApart(shapes: PileGenerator.Shapes) {
        let generator = Self.generator(shapes)
        let crates = generator.crates(in: Vec2(800, 800))
        #expect(crates == generator.crates(in: Vec2(800, 800)))
        #expect(crates.count == 400)
        var kinds = Set<BodyShape.Kind>()
        for crate in crates {
            kinds.insert(crate.shape.kind)
            #expect(crate.problems().isEmpty, "\(crate)")
            let reach = crate.shape.halfExtents(angle: 0)
            #expect(max(reach.x, reach.y) <= 16 / 2 * 2.0.squareRoot())
            switch crate.shape {
            case let .circle(radius):
                #expect((4...8).contains(radius) && crate.mass == 0.01 * (Double.pi * radius * radius))
            case let .polygon(vertices, _):
                #expect((3...8).contains(vertices.count))
                let circumradius = vertices[0].length
                #expect((4...8).contains(circumradius))
                #expect(vertices.allSatisfy { abs($0.length - circumradius) < 1e-12 })
            case let .box(size):
                #expect(crate.mass == 0.01 * size.x * size.y)
            case .segment, .compound:
                Issue.record("the generator makes no segments or compound bodies")
            }
        }
        #expect(CrateOverlaps.check(crates, limit: 0).crowded.isEmpty, "no two generated crates overlap")
        #expect(shapes == .mix ? kinds == [.box, .circle, .polygon] : kinds == [shapes == .circle ? .circle : .polygon])
    }

    @Test func boxesAreExactlyWhatTheyWere() {
        // The draws and the mass's order of operations of the generator before other shapes: a
        // determinism class's probe and every generated box scene's hashes rest on them.
        var random = SplitMix64(seed: 11)
        let crates = Self.generator(.box).crates(in: Vec2(800, 800))
        for crate in crates.prefix(20) {
            let width = random.next(in: 8...16), height = random.next(in: 8...16), angle = random.nextUnit() * 2 * Double.pi
            #expect(crate.shape == .box(size: Vec2(width, height)) && crate.angle == angle && crate.mass == 0.01 * width * height)
        }
    }

    @Test func sidesAreDrawnWithinTheirRangeAndCheckedAgainstTheTable() {
        let crates = Self.generator(.polygon, sides: 5...6).crates(in: Vec2(800, 800))
        #expect(Set(crates.map { if case let .polygon(vertices, _) = $0.shape { vertices.count } else { 0 } }) == [5, 6])
        #expect(Self.generator(.polygon, sides: 2...9).problems(in: Vec2(800, 800)).map(\.field) == ["sides"])
    }

    @Test func theCornerTableIsTheUnitCircle() {
        for sides in RegularPolygon.sides {
            for (k, corner) in RegularPolygon.corners(sides: sides, radius: 1).enumerated() {
                let angle = 2 * Double.pi * Double(k) / Double(sides)
                #expect(abs(corner.x - cos(angle)) < 1e-15 && abs(corner.y - sin(angle)) < 1e-15, "\(sides) sides, corner \(k)")
            }
        }
    }
}
