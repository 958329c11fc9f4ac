import SceneModel
import Testing

@Suite struct PileGeneratorTests {
    let generator = PileGenerator(count: 500, seed: 9, minSize: 8, maxSize: 16, density: 0.01, friction: 0.7, elasticity: 0.1)

    @Test func sameSeedGivesTheSameCrates() {
        #expect(generator.crates(in: Vec2(800, 800)) == generator.crates(in: Vec2(800, 800)))
        var other = generator
        other.seed = 10
        #expect(other.crates(in: Vec2(800, 800)) != generator.crates(in: Vec2(800, 800)))
    }

    @Test func cratesStayInRangeAndNeverOverlapAtAnyAngle() {
        let crates = generator.crates(in: Vec2(800, 800))
        #expect(crates.count == 500)
        for crate in crates {
            #expect((8...16).contains(crate.size.x) && (8...16).contains(crate.size.y))
            #expect(crate.mass == 0.01 * crate.size.x * crate.size.y)
            // Bounding circles of neighbours in the grid are disjoint.
            let radius = (crate.size.x * crate.size.x + crate.size.y * crate.size.y).squareRoot() / 2
            #expect(radius * 2 < generator.cellSize)
            #expect(crate.center.x - radius > 0 && crate.center.x + radius < 800)
            #expect(crate.center.y - radius > 0 && crate.center.y + radius < 800)
        }
    }

    @Test func tooManyCratesForTheWorldIsAProblem() {
        let problems = generator.problems(in: Vec2(100, 100))
        #expect(problems.map(\.field) == ["count"])
        #expect(problems.first?.message.contains("do not fit") == true)
    }
}
