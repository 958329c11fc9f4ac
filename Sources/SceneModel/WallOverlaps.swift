#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif

/// Finds bodies that start overlapping a wall: a crate placed across a wall is pushed out by
/// Chipmunk at its first step, along the shortest way out, which may be the wall's far side (out
/// of the world). Scene validation reports these as warnings, not errors: a scene may mean it.
///
/// The test is exact for every pair of shapes (`ConvexOutline`): where the cores are apart, the
/// overlap is both radii less the distance between them; where they meet, both radii plus how deep
/// one core lies in the other (the least push along a side's normal). Overlaps up to `slop` are
/// left out: Chipmunk itself lets resting shapes overlap that much.
public enum WallOverlaps {
    /// One body overlapping one wall: indices into the arrays given to `check`, and how deep.
    public struct Overlap: Sendable, Equatable {
        public var body: Int
        public var wall: Int
        /// How far, in pixels, the body reaches into the wall (at least `slop`).
        public var depth: Double
        /// Whether the wall's core (a segment's centre line, a polygon's inside) reaches into the
        /// body's core: the body lies across the wall.
        public var across: Bool
    }

    /// Chipmunk's default collision slop (`cpSpaceGetCollisionSlop`, 0.1 px): the overlap it
    /// leaves between shapes at rest. Overlaps no deeper are not reported.
    public static let slop = 0.1

    /// Body-against-wall tests done before `check` gives up (each is a few dozen operations, most
    /// of them ended by the bounding boxes).
    public static let maxWork = 20_000_000

    /// What `check` found: overlaps in body order (then wall order), or that it gave up.
    public struct Report: Sendable, Equatable {
        public var overlaps: [Overlap] = []
        /// More than `maxWork` body-wall pairs: nothing was checked.
        public var gaveUp = false
    }

    /// Every pair of `bodies` and `walls` that overlap by more than `slop`. Values must be valid
    /// (`problems()` empty): the caller checks them first.
    public static func check(bodies: [CrateSpec], walls: [WallSpec]) -> Report {
        var report = Report()
        guard !walls.isEmpty, !bodies.isEmpty else { return report }
        let (pairs, overflow) = bodies.count.multipliedReportingOverflow(by: walls.count)
        guard !overflow, pairs <= maxWork else {
            report.gaveUp = true
            return report
        }
        let wallOutlines = walls.map { Placed($0.outline) }
        for (bodyIndex, body) in bodies.enumerated() {
            // A compound body's deepest part names the overlap.
            let pieces = body.shape.outlines.map { Placed($0.placed(at: body.center, angle: body.angle)) }
            for (wallIndex, wall) in wallOutlines.enumerated() where body.collision.pushes(walls[wallIndex].collision) {
                var deepest: Overlap?
                for placed in pieces where placed.boundsMeet(wall) {
                    let core = placed.outline.coreSeparation(wall.outline)
                    let depth = placed.outline.radius + wall.outline.radius - core
                    if depth > slop, depth > (deepest?.depth ?? 0) {
                        deepest = Overlap(body: bodyIndex, wall: wallIndex, depth: depth, across: core < placed.outline.radius)
                    }
                }
                if let deepest { report.overlaps.append(deepest) }
            }
        }
        return report
    }

    /// An outline with its bounding box, for a quick rejection.
    struct Placed {
        var outline: ConvexOutline
        var low: Vec2
        var high: Vec2

        init(_ outline: ConvexOutline) {
            self.outline = outline
            (low, high) = outline.bounds
        }

        /// Whether the bounding boxes come within `slop` of each other (else there is no overlap).
        func boundsMeet(_ other: Placed) -> Bool {
            max(other.low.x - high.x, low.x - other.high.x, other.low.y - high.y, low.y - other.high.y) <= 0
        }
    }
}
