#if canImport(Glibc)
import Glibc
#endif
import Physics
import SceneModel
import Testing

/// Concave outlines into convex parts through Chipmunk's `cpPolylineConvexDecomposition`: the
/// parts, their order, their cover of the outline, and the refusals that keep Chipmunk's
/// assertions (an abort in Debian's debug build) out of reach.
@Suite(.timeLimit(.minutes(3)))
struct OutlineDecomposerTests {
    /// A U, counter-clockwise from its bottom left: 60 wide, 40 high, a 20×20 slot from the top.
    static let u = [Vec2(0, 0), Vec2(60, 0), Vec2(60, 40), Vec2(40, 40), Vec2(40, 20), Vec2(20, 20), Vec2(20, 40), Vec2(0, 40)]

    /// The U's parts, worked out by hand from Chipmunk's algorithm. The hull is the 60×40
    /// rectangle; walking its top side from (60, 40), the notches (40, 20) and (20, 20) are 20
    /// deep, and the first met, (40, 20), is taken. The cut runs along the top side's inward
    /// normal, straight down, to (40, 0). The side from the notch forward, (40, 20) (20, 20)
    /// (20, 40) (0, 40) (0, 0) (40, 0), comes first: its hull's side from (40, 20) to (20, 40)
    /// leaves (20, 20) 14.1 deep, cut along that side's inward normal, down and left, to the
    /// corner (0, 0): the piece from that notch forward, then the other. Last, the other side of
    /// the first cut, (60, 0) (60, 40) (40, 40) (40, 20) (40, 0), is convex; its hull leaves out
    /// (40, 20), which lies on its side. Each piece is its hull, from its least x (least y among
    /// equals), counter-clockwise.
    static let uParts: [[Vec2]] = [
        [Vec2(0, 0), Vec2(20, 20), Vec2(20, 40), Vec2(0, 40)],
        [Vec2(0, 0), Vec2(40, 0), Vec2(40, 20), Vec2(20, 20)],
        [Vec2(40, 0), Vec2(60, 0), Vec2(60, 40), Vec2(40, 40)],
    ]

    @Test func aUBecomesThreeConvexPartsInChipmunksOrder() throws {
        let parts = try OutlineDecomposer.pieces(of: Self.u, tolerance: 0)
        #expect(parts == Self.uParts, "\(parts)")
    }

    @Test func theWindingAndTheFirstVertexChangeNothing() throws {
        let expected = try OutlineDecomposer.pieces(of: Self.u, tolerance: 0.1)
        for start in Self.u.indices {
            let turned = Array(Self.u[start...] + Self.u[..<start])
            #expect(try OutlineDecomposer.pieces(of: turned, tolerance: 0.1) == expected, "starting at \(start)")
            #expect(try OutlineDecomposer.pieces(of: Array(turned.reversed()), tolerance: 0.1) == expected, "clockwise from \(start)")
        }
    }

    @Test func aNotchNoDeeperThanTheToleranceIsFilledIn() throws {
        // A 100×20 bar whose top dips 0.05 px at its middle: one part (the hull) at the default
        // tolerance of 0.1 px, two at tolerance 0.
        let bar = [Vec2(0, 0), Vec2(100, 0), Vec2(100, 20), Vec2(50, 19.95), Vec2(0, 20)]
        #expect(try OutlineDecomposer.pieces(of: bar, tolerance: OutlineLimits.defaultTolerance).count == 1)
        #expect(try OutlineDecomposer.pieces(of: bar, tolerance: 0).count == 2)
    }

    /// Star-shaped outlines of 3 to 64 vertices at random radii (seeded): Chipmunk's parts are
    /// convex, within the limits, at tolerance 0 cover the outline's area (to rounding), and do
    /// not change when the outline is written from another vertex the other way round.
    @Test func randomOutlinesBecomeConvexPartsCoveringTheirArea() throws {
        var random = SplitMix64(seed: 45)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var checked = 0
        for _ in 0..<300 {
            let n = 3 + Int(random.next() % 62)
            let outline = (0..<n).map { i -> Vec2 in
                let angle = 2 * Double.pi * (Double(i) + 0.8 * unit()) / Double(n)
                let radius = 10 + 90 * unit()
                return Vec2(radius * cos(angle), radius * sin(angle))
            }
            guard OutlineCheck.problems(outline, field: "vertices", magnitude: 1e5).isEmpty else { continue }
            let parts: [[Vec2]]
            do {
                parts = try OutlineDecomposer.pieces(of: outline, tolerance: 0)
            } catch {
                // A part Chipmunk may not take would be named, never passed on; none of these has one.
                Issue.record("\(error)")
                continue
            }
            let area = parts.reduce(0) { $0 + abs(ConvexPolygonCheck.signedArea($1)) }
            let expected = abs(ConvexPolygonCheck.signedArea(outline))
            #expect(abs(area - expected) < 1e-9 * expected, "\(n) vertices: parts' area \(area), outline's \(expected)")
            #expect(parts.allSatisfy { ConvexPolygonCheck.problems($0, field: "", magnitude: 1e5).isEmpty })
            // Written from another vertex, the other way round: the same parts, bit for bit.
            let start = Int(random.next() % UInt64(n))
            let rewritten = Array((outline[start...] + outline[..<start]).reversed())
            #expect(try OutlineDecomposer.pieces(of: rewritten, tolerance: 0) == parts)
            checked += 1
        }
        #expect(checked > 250)
    }

    /// Simple outlines on a 12×12 whole-number grid (random points, crossings undone by reversing
    /// the stretch between them), full of ties and cuts through vertices: each decomposes into parts
    /// covering its area, or is refused by name; none reaches Chipmunk's endless recursion (a cut of
    /// length 0 cuts a piece into itself, a stack overflow before the dry run stopped it).
    @Test func gridOutlinesDecomposeOrAreRefusedButNeverRecurseForever() throws {
        var random = SplitMix64(seed: 7)
        var decomposed = 0, refused = 0
        for _ in 0..<4000 {
            let n = 4 + Int(random.next() % 20)
            var points = (0..<n).map { _ in Vec2(Double(random.next() % 12), Double(random.next() % 12)) }
            var untangled = false
            for _ in 0..<100 where !untangled {
                untangled = true
                for i in 0..<n {
                    for j in (i + 2)..<max(i + 2, n) where !(i == 0 && j == n - 1) {
                        let p = points[i], q = points[(i + 1) % n], r = points[j], s = points[(j + 1) % n]
                        func turn(_ a: Vec2, _ b: Vec2, _ c: Vec2) -> Double { (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) }
                        if turn(p, q, r) * turn(p, q, s) < 0, turn(r, s, p) * turn(r, s, q) < 0 {
                            points[(i + 1)...j].reverse()
                            untangled = false
                        }
                    }
                }
            }
            guard OutlineCheck.problems(points, field: "vertices", magnitude: 1e5).isEmpty else { continue }
            do {
                let parts = try OutlineDecomposer.pieces(of: points, tolerance: 0, maxParts: 1000)
                let area = parts.reduce(0) { $0 + abs(ConvexPolygonCheck.signedArea($1)) }
                let expected = abs(ConvexPolygonCheck.signedArea(points))
                #expect(abs(area - expected) < 1e-9 * expected, "\(points)")
                decomposed += 1
            } catch {
                #expect(error.description.contains("Chipmunk's convex decomposition cannot take this outline"), "\(error)")
                refused += 1
            }
        }
        // 1,092 decomposed and 8 refused with this seed.
        #expect(decomposed > 1000 && refused > 0, "\(decomposed) decomposed, \(refused) refused")
    }

    /// The outline that overflowed the stack: a cut from (4, 6) ends exactly on the vertex (4, 5),
    /// which is then the deepest notch of the piece, and the cut from it has length 0.
    @Test func aCutOfLengthZeroIsRefusedNamingItsVertex() {
        let outline = [Vec2(4, 5), Vec2(7, 8), Vec2(9, 7), Vec2(8, 1), Vec2(11, 9), Vec2(4, 11), Vec2(7, 9), Vec2(5, 8), Vec2(4, 6),
                       Vec2(2, 11), Vec2(3, 4), Vec2(4, 4), Vec2(7, 2), Vec2(7, 3)]
        #expect(OutlineCheck.problems(outline, field: "vertices", magnitude: 1e5).isEmpty)
        #expect(throws: OutlineError.self) { try OutlineDecomposer.pieces(of: outline, tolerance: 0) }
        do {
            _ = try OutlineDecomposer.pieces(of: outline, tolerance: 0)
        } catch {
            #expect(error.description == "vertices: Chipmunk's convex decomposition cannot take this outline: the cut from the notch at "
                + "[4, 5] has length 0 (a cut before it ran exactly through that vertex), so it would cut a piece into itself forever "
                + "(move a vertex there a little, or change tolerance)")
        }
        // Moved a little, it decomposes.
        var moved = outline
        moved[0] = Vec2(4.25, 5)
        #expect(throws: Never.self) { try OutlineDecomposer.pieces(of: moved, tolerance: 0) }
    }

    @Test(arguments: [
        ([Vec2(0, 0), Vec2(10, 10)], "vertices: an outline needs 3...64 vertices, got 2"),
        ([Vec2(0, 0), Vec2(20, 20), Vec2(20, 0), Vec2(0, 20)],
         "vertices[2]: the outline crosses itself: the side from vertex 0 to 1 meets the side from vertex 2 to 3"),
        ([Vec2(0, 0), Vec2(10, 0), Vec2(20, 0), Vec2(0, 20)], "vertices[1]: lies on the line through its neighbours"),
        ([Vec2(0, 0), Vec2(1e-3, 0), Vec2(0, 1e-3)], "vertices: the outline's area is 5e-7 px²"),
        ([Vec2(0, 0), Vec2(.nan, 0), Vec2(0, 10)], "vertices[1][0]: must be a finite number"),
        ([Vec2(0, 0), Vec2(10, 0), Vec2(10, 10), Vec2(20, 10), Vec2(10, 0), Vec2(0, 10)], "vertices[3]: the outline crosses itself: the side from vertex 0 to 1 meets the side from vertex 3 to 4"),
    ])
    func badOutlinesAreRefusedBeforeChipmunk(outline: [Vec2], message: String) {
        #expect(throws: OutlineError.self) { try OutlineDecomposer.pieces(of: outline, tolerance: 0.1) }
        do {
            _ = try OutlineDecomposer.pieces(of: outline, tolerance: 0.1)
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func anOutlineOfTooManyPartsIsRefusedWithTheCount() throws {
        // A comb of 15 teeth (10 wide, 40 high, 10 apart) on a back 10 high: 60 vertices,
        // counter-clockwise from the back's bottom left.
        var comb = [Vec2(0, 0), Vec2(290, 0)]
        for k in (0..<15).reversed() {
            let x = Double(20 * k)
            comb += [Vec2(x + 10, 50), Vec2(x, 50)]
            if k > 0 { comb += [Vec2(x, 10), Vec2(x - 10, 10)] }
        }
        #expect(OutlineCheck.problems(comb, field: "vertices", magnitude: 1e5).isEmpty, "\(OutlineCheck.problems(comb, field: "vertices", magnitude: 1e5))")
        let count = try OutlineDecomposer.pieces(of: comb, tolerance: 0.1, maxParts: 1000).count
        #expect(count >= 15)
        #expect(throws: OutlineError.tooManyParts(count: count, limit: 10)) {
            try OutlineDecomposer.pieces(of: comb, tolerance: 0.1, maxParts: 10)
        }
    }

    /// An L outline's body: the mass shared by area, and Chipmunk's centre of gravity and moment
    /// those of the L worked out by hand (two rectangles, the parallel-axis theorem).
    @Test func anOutlineBodysMassCentreOfGravityAndMomentAreTheLsByHand() throws {
        // An L: a 60×20 foot along the bottom and a 20×40 upright on its left, 2,000 px² in all.
        let l = [Vec2(0, 0), Vec2(60, 0), Vec2(60, 20), Vec2(20, 20), Vec2(20, 60), Vec2(0, 60)]
        let parts = try OutlineDecomposer.parts(of: l, like: BodyPart(shape: .circle(radius: 1), mass: 10))
        #expect(abs(parts.reduce(0) { $0 + $1.mass } - 10) < 1e-12)
        let world = try World(gravity: Vec2(0, -1000))
        let crate = try world.addCrate(CrateSpec(center: Vec2(100, 100), shape: .compound(parts: parts), mass: 10))
        // Foot: 1,200 px² centred (30, 10); upright 800 px² centred (10, 40). Density 10 / 2000.
        let density = 10.0 / 2000
        let rects: [(area: Double, w: Double, h: Double, c: Vec2)] = [(1200, 60, 20, Vec2(30, 10)), (800, 20, 40, Vec2(10, 40))]
        let cog = (rects[0].c * rects[0].area + rects[1].c * rects[1].area) * (1 / 2000)
        let moment = rects.reduce(0.0) { sum, r in
            let m = density * r.area, d = (r.c - cog).length
            return sum + m * (r.w * r.w + r.h * r.h) / 12 + m * d * d
        }
        let chipmunk = crate.massProperties
        #expect(abs(chipmunk.mass - 10) < 1e-12)
        #expect((chipmunk.centerOfGravity - cog).length < 1e-9, "\(chipmunk.centerOfGravity) vs \(cog)")
        #expect(abs(chipmunk.moment - moment) < 1e-9 * moment, "\(chipmunk.moment) vs \(moment)")
        #expect(world.makeups().first?.moment == chipmunk.moment)
    }
}
