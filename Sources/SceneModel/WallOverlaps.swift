#if canImport(Glibc)
import Glibc
#endif

/// Finds bodies that start overlapping a wall: a crate placed across a wall is pushed out by
/// Chipmunk at its first step, along the shortest way out, which may be the wall's far side (out
/// of the world). Scene validation reports these as warnings, not errors: a scene may mean it.
///
/// The test is exact for each shape against a wall's rounded segment (a capsule: every point within
/// `radius` of the segment from `from` to `to`). A circle's centre's distance from the segment is
/// compared with both radii. A box's distance from the segment is compared with the radius, and
/// where the segment itself enters the box, the overlap is the radius plus
/// how deep the segment lies inside (the least overlap along the box's two axes and the segment's
/// normal). Overlaps up to `slop` are left out: Chipmunk itself lets resting shapes overlap that much.
public enum WallOverlaps {
    /// One body overlapping one wall: indices into the arrays given to `check`, and how deep.
    public struct Overlap: Sendable, Equatable {
        public var body: Int
        public var wall: Int
        /// How far, in pixels, the box reaches into the wall's capsule (at least `slop`).
        public var depth: Double
        /// Whether the wall's centre line runs through the box: the body lies across the wall.
        public var across: Bool
    }

    /// Chipmunk's default collision slop (`cpSpaceGetCollisionSlop`, 0.1 px): the overlap it
    /// leaves between shapes at rest. Overlaps no deeper are not reported.
    public static let slop = 0.1

    /// Box-against-wall tests done before `check` gives up (each is a few dozen operations, most
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
        let capsules = walls.map(Capsule.init)
        for (bodyIndex, body) in bodies.enumerated() {
            switch body.shape {
            case .box:
                let box = Box(body)
                for (wallIndex, capsule) in capsules.enumerated() where box.boundsMeet(capsule) {
                    let (depth, across) = box.overlap(capsule)
                    if depth > slop { report.overlaps.append(Overlap(body: bodyIndex, wall: wallIndex, depth: depth, across: across)) }
                }
            case let .circle(radius):
                for (wallIndex, capsule) in capsules.enumerated() {
                    // A disc against a capsule: how far the centre is from the segment, against both radii.
                    let distance = Self.distance(from: body.center, toSegment: capsule.from, capsule.to)
                    let depth = radius + capsule.radius - distance
                    if depth > slop {
                        report.overlaps.append(Overlap(body: bodyIndex, wall: wallIndex, depth: depth, across: distance < radius))
                    }
                }
            }
        }
        return report
    }

    /// A wall: its segment, radius and bounding box (grown by the radius).
    struct Capsule {
        var from: Vec2
        var to: Vec2
        var radius: Double
        var minX, maxX, minY, maxY: Double

        init(_ wall: WallSpec) {
            from = wall.from
            to = wall.to
            radius = wall.radius
            minX = min(from.x, to.x) - radius
            maxX = max(from.x, to.x) + radius
            minY = min(from.y, to.y) - radius
            maxY = max(from.y, to.y) + radius
        }
    }

    /// A crate's rectangle: centre, axes, half sizes, and its bounding box.
    struct Box {
        var center: Vec2
        var axisX: Vec2
        var axisY: Vec2
        var half: Vec2
        var minX, maxX, minY, maxY: Double

        init(_ crate: CrateSpec) {
            let c = cos(crate.angle), s = sin(crate.angle)
            center = crate.center
            axisX = Vec2(c, s)
            axisY = Vec2(-s, c)
            half = Vec2(crate.size.x / 2, crate.size.y / 2)
            let extentX = abs(c) * half.x + abs(s) * half.y, extentY = abs(s) * half.x + abs(c) * half.y
            minX = center.x - extentX
            maxX = center.x + extentX
            minY = center.y - extentY
            maxY = center.y + extentY
        }

        /// Whether the bounding boxes come within `slop` of each other (else there is no overlap).
        func boundsMeet(_ wall: Capsule) -> Bool {
            max(wall.minX - maxX, minX - wall.maxX, wall.minY - maxY, minY - wall.maxY) <= 0
        }

        /// `point` in the box's own frame (centre at the origin, sides along the axes).
        func local(_ point: Vec2) -> Vec2 {
            let d = point - center
            return Vec2(d.x * axisX.x + d.y * axisX.y, d.x * axisY.x + d.y * axisY.y)
        }

        /// How deep the box reaches into the capsule, and whether the segment enters the box.
        func overlap(_ wall: Capsule) -> (depth: Double, across: Bool) {
            let a = local(wall.from), b = local(wall.to)
            let distance = segmentDistance(a, b)
            guard distance == 0 else { return (wall.radius - distance, false) }
            // The segment meets the box: how far it must move to leave it, along each separating
            // axis (the box's two, the segment's normal); the least of these is how deep it lies.
            let along = b - a
            let normal = Vec2(-along.y, along.x) * (1 / along.length)
            let depthX = min(max(a.x, b.x) + half.x, half.x - min(a.x, b.x))
            let depthY = min(max(a.y, b.y) + half.y, half.y - min(a.y, b.y))
            let depthNormal = half.x * abs(normal.x) + half.y * abs(normal.y) - abs(a.x * normal.x + a.y * normal.y)
            let inside = max(0, min(depthX, depthY, depthNormal))
            return (wall.radius + inside, inside > 0)
        }

        /// The distance from the segment a-b (box frame) to the solid box: 0 if they meet.
        func segmentDistance(_ a: Vec2, _ b: Vec2) -> Double {
            if clipsBox(a, b) { return 0 }
            // Apart, the closest points are an endpoint of one and a point of the other.
            var best = min(pointDistance(a), pointDistance(b))
            for corner in [Vec2(-half.x, -half.y), Vec2(half.x, -half.y), Vec2(half.x, half.y), Vec2(-half.x, half.y)] {
                best = min(best, WallOverlaps.distance(from: corner, toSegment: a, b))
            }
            return best
        }

        /// Whether the segment a-b meets the closed box (Liang–Barsky clipping).
        func clipsBox(_ a: Vec2, _ b: Vec2) -> Bool {
            var low = 0.0, high = 1.0
            let d = b - a
            for (p, q) in [(-d.x, a.x + half.x), (d.x, half.x - a.x), (-d.y, a.y + half.y), (d.y, half.y - a.y)] {
                if p == 0 {
                    if q < 0 { return false }
                } else {
                    let t = q / p
                    if p < 0 { low = max(low, t) } else { high = min(high, t) }
                    if low > high { return false }
                }
            }
            return true
        }

        /// The distance from `point` (box frame) to the solid box.
        func pointDistance(_ point: Vec2) -> Double {
            Vec2(max(abs(point.x) - half.x, 0), max(abs(point.y) - half.y, 0)).length
        }
    }

    /// The distance from `point` to the segment a-b.
    static func distance(from point: Vec2, toSegment a: Vec2, _ b: Vec2) -> Double {
        let d = b - a, lengthSquared = d.x * d.x + d.y * d.y
        let t = lengthSquared == 0 ? 0 : max(0, min(1, ((point.x - a.x) * d.x + (point.y - a.y) * d.y) / lengthSquared))
        return (point - (a + d * t)).length
    }
}
