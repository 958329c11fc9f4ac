#if canImport(Glibc)
import Glibc
#elseif canImport(WASILibc)
import WASILibc
#endif

/// Finds crates that start overlapping many others: each overlap is a contact Chipmunk resolves
/// in every solver iteration of every step, and a heap of coincident crates makes one step take
/// minutes (2000 crates on one spot: over 120 s) or exhausts memory (20,000). A scene is refused
/// when any crate starts overlapping more than `Limits.overlapsPerCrate` others (README,
/// "Limits"). Touching is not overlapping: shapes must share area.
///
/// Boxes go into a uniform grid (cells twice the median crate's larger side, and at least 1/64 of
/// the largest), each into every cell its bounding box covers, so the work follows the number of
/// near pairs; counting for a crate stops once it is over the limit, which bounds the work for
/// heaps too. Past `maxWork` cell entries plus box tests the check gives up and says so (a scene
/// of crates spread over wildly different sizes could otherwise make it quadratic).
public enum CrateOverlaps {
    /// One crate that overlaps too many others: its index in creation order and some of them.
    public struct Crowded: Sendable, Equatable {
        public var index: Int
        /// At least `Limits.overlapsPerCrate + 1`; counting stops there.
        public var overlaps: Int
        public var examples: [Int]
    }

    /// What the check found: crowded crates (creation order, at most `maxReported`), pairs that
    /// overlap and pairs in contact (overlapping or touching), or that it gave up.
    public struct Report: Sendable, Equatable {
        public var crowded: [Crowded] = []
        /// Pairs sharing area; counting stops past `Limits.overlappingPairs`.
        public var overlappingPairs = 0
        /// Pairs overlapping or closer than `contactDistance`; counting stops past `Limits.contactPairs`.
        public var contactPairs = 0
        public var gaveUp = false
    }

    /// Boxes this close (in pixels) count as in contact: Chipmunk makes a contact for them.
    public static let contactDistance = 0.01

    public static let maxWork = 20_000_000

    /// How far two bodies of a running world may share area and not count as overlapping when a
    /// saved state is checked (`deepOnly`): this share of the smaller one's narrower half extent.
    /// Resting bodies press into each other by the collision slop (0.1 px) and a little more in a
    /// deep pile; bodies piled on one spot by a crafted state overlap whole.
    public static let restingShare = 0.25
    /// ... and never less than this, in pixels: a segment of radius 0 has no narrow side, and
    /// bodies resting on it press into it by the collision slop.
    public static let restingFloor = 1.0

    /// Crates (in creation order) that overlap more than `limit` others.
    /// - Parameters:
    ///   - crates: the bodies, in creation order, their values valid.
    ///   - limit: how many others a body may overlap.
    ///   - maxReported: crowded bodies reported at most.
    ///   - deepOnly: count only overlaps deeper than `restingShare` of the smaller body (a saved
    ///     state's bodies, which rest pressed together), and leave touching pairs uncounted.
    public static func check(_ crates: [CrateSpec], limit: Int = Limits.overlapsPerCrate, maxReported: Int = 5,
                             deepOnly: Bool = false) -> Report {
        var report = Report()
        guard crates.count > limit else { return report }
        let boxes = crates.map(Box.init)
        let sides = boxes.map { max($0.maxX - $0.minX, $0.maxY - $0.minY) }.sorted()
        let cell = max(2 * sides[sides.count / 2], sides[sides.count - 1] / 64, 1e-3)
        let ranges = boxes.map { CellRange($0, cell: cell) }
        var work = 0
        for range in ranges {
            work += range.count
            if work > maxWork {
                report.gaveUp = true
                return report
            }
        }
        let grid = Grid(ranges)
        // The crate last met in the current crate's search, per crate: no set to allocate for each.
        var seenBy = [Int](repeating: -1, count: boxes.count)
        for (index, box) in boxes.enumerated() {
            var overlapping: [Int] = []
            let range = ranges[index]
            search: for x in range.x0...range.x1 {
                for y in range.y0...range.y1 {
                    for other in grid.crates(inCell: x, y) where other != index && seenBy[other] != index {
                        seenBy[other] = index
                        guard box.collision.pushes(boxes[other].collision) else {
                            // Chipmunk's broadphase keeps every pair whose bounding boxes meet,
                            // whatever its filter, and collides a sensor's pairs every step: a heap
                            // of sensors, or of one filter group, costs what a packed block does.
                            if !deepOnly, other > index, box.boxOverlap(boxes[other]) >= -contactDistance { report.contactPairs += 1 }
                            continue
                        }
                        work += 1
                        let overlaps: Bool
                        if deepOnly {
                            // Two shapes overlap no deeper than their bounding boxes do (moving one
                            // by the boxes' overlap along x or y parts them): bodies resting against
                            // each other are passed over without the exact test.
                            let depth = deepGap(box, boxes[other])
                            overlaps = box.boxOverlap(boxes[other]) > depth && box.overlaps(boxes[other], deeperThan: depth)
                        } else {
                            let gap = box.separation(boxes[other])
                            if gap <= contactDistance, other > index { report.contactPairs += 1 }
                            overlaps = gap < -1e-6
                        }
                        if overlaps {
                            overlapping.append(other)
                            if other > index { report.overlappingPairs += 1 }
                            if overlapping.count > limit { break search }
                        }
                    }
                }
            }
            if report.contactPairs > Limits.contactPairs || report.overlappingPairs > Limits.overlappingPairs { return report }
            if work > maxWork {
                report.gaveUp = true
                return report
            }
            if overlapping.count > limit {
                report.crowded.append(Crowded(index: index, overlaps: overlapping.count, examples: Array(overlapping.prefix(3))))
                if report.crowded.count == maxReported { break }
            }
        }
        return report
    }

    /// Whether `newcomer`, added to a running world, lies deep (as `check(deepOnly: true)` counts)
    /// in more than `limit` of `others`: that check's answer for the last body, without testing
    /// the others' pairs among themselves (a flood of refused adds on one spot spent most of its
    /// time there).
    public static func crowds(_ newcomer: CrateSpec, among others: [CrateSpec], limit: Int = Limits.overlapsPerCrate) -> Bool {
        guard others.count > limit else { return false }
        let box = Box(newcomer)
        var deep = 0
        for other in others {
            let otherBox = Box(other)
            let depth = deepGap(box, otherBox)
            guard box.collision.pushes(otherBox.collision), box.boxOverlap(otherBox) > depth,
                  box.overlaps(otherBox, deeperThan: depth) else { continue }
            deep += 1
            if deep > limit { return true }
        }
        return false
    }

    /// How far two bodies of a running world may share area and still count as resting.
    private static func deepGap(_ a: Box, _ b: Box) -> Double {
        max(restingShare * min(a.narrowHalf, b.narrowHalf), restingFloor)
    }

    /// The cells a box's bounding box covers. Crates are inside the world (at most 10^6 px) and at
    /// most 10^5 px, and cells are at least a median side wide, so the indices stay small.
    private struct CellRange {
        var x0, x1, y0, y1: Int

        init(_ box: Box, cell: Double) {
            x0 = Int((box.minX / cell).rounded(.down))
            x1 = Int((box.maxX / cell).rounded(.down))
            y0 = Int((box.minY / cell).rounded(.down))
            y1 = Int((box.maxY / cell).rounded(.down))
        }

        var count: Int { (x1 - x0 + 1) * (y1 - y0 + 1) }
    }

    /// Each cell's crates, in creation order, in one array (a cell's run found through an open
    /// addressing table of cell keys, at most half full of the cells in use): a dictionary of
    /// arrays hashed every key with a seeded hasher and allocated an array a cell, most of a
    /// 100-crate scene's check.
    private struct Grid {
        private var keys: [Int64]
        private var runs: [(start: Int, count: Int)]
        private var crates: [Int]
        private var mask: Int

        init(_ ranges: [CellRange]) {
            mask = 15
            keys = [Int64](repeating: Int64.min, count: mask + 1)
            runs = [(start: Int, count: Int)](repeating: (0, 0), count: mask + 1)
            crates = []
            var cells = 0
            for range in ranges {
                for x in range.x0...range.x1 {
                    for y in range.y0...range.y1 {
                        let key = Self.key(x, y)
                        var slot = Self.slot(key, keys: keys, mask: mask)
                        if keys[slot] == Int64.min {
                            keys[slot] = key
                            cells += 1
                            if 2 * cells > mask + 1 {
                                grow()
                                slot = Self.slot(key, keys: keys, mask: mask)
                            }
                        }
                        runs[slot].count += 1
                    }
                }
            }
            var start = 0
            for slot in runs.indices where keys[slot] != Int64.min {
                runs[slot].start = start
                start += runs[slot].count
                runs[slot].count = 0
            }
            crates = [Int](repeating: 0, count: start)
            for (index, range) in ranges.enumerated() {
                for x in range.x0...range.x1 {
                    for y in range.y0...range.y1 {
                        let slot = Self.slot(Self.key(x, y), keys: keys, mask: mask)
                        crates[runs[slot].start + runs[slot].count] = index
                        runs[slot].count += 1
                    }
                }
            }
        }

        /// Twice the slots, the cells counted so far moved over.
        private mutating func grow() {
            let oldKeys = keys, oldRuns = runs
            mask = 2 * (mask + 1) - 1
            keys = [Int64](repeating: Int64.min, count: mask + 1)
            runs = [(start: Int, count: Int)](repeating: (0, 0), count: mask + 1)
            for (slot, key) in oldKeys.enumerated() where key != Int64.min {
                let new = Self.slot(key, keys: keys, mask: mask)
                keys[new] = key
                runs[new] = oldRuns[slot]
            }
        }

        /// The crates whose boxes cover cell (x, y), in creation order.
        func crates(inCell x: Int, _ y: Int) -> ArraySlice<Int> {
            let slot = Self.slot(Self.key(x, y), keys: keys, mask: mask)
            guard keys[slot] != Int64.min else { return [] }
            return crates[runs[slot].start..<(runs[slot].start + runs[slot].count)]
        }

        /// Cell indices fit in 32 bits each (see `CellRange`).
        /// 64 bits on every CPU (`Int` is 32 bits on wasm32, where x << 32 would lose x).
        private static func key(_ x: Int, _ y: Int) -> Int64 { Int64(x) << 32 | (Int64(y) & 0xFFFF_FFFF) }

        private static func hash(_ key: Int64) -> Int { Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) }

        /// The slot holding `key`, or the empty slot where it would go.
        private static func slot(_ key: Int64, keys: [Int64], mask: Int) -> Int {
            var slot = hash(key) & mask
            while keys[slot] != Int64.min, keys[slot] != key { slot = (slot + 1) & mask }
            return slot
        }
    }

    /// A body's footprint in the world: its outline placed at its centre and angle, and its
    /// bounding box. Every pair of shapes gets an exact overlap test (`ConvexOutline.separation`).
    private struct Box {
        /// One for a simple shape, one a part for a compound body.
        var outlines: [ConvexOutline]
        var collision: CollisionSettings
        var minX, maxX, minY, maxY: Double
        /// Half the narrower side of the shape's bounding size.
        var narrowHalf: Double

        init(_ crate: CrateSpec) {
            outlines = crate.shape.outlines.map { $0.placed(at: crate.center, angle: crate.angle) }
            collision = crate.collision
            let size = crate.shape.boundingSize
            narrowHalf = min(size.x, size.y) / 2
            let extent = crate.shape.halfExtents(angle: crate.angle)
            minX = crate.center.x - extent.x
            maxX = crate.center.x + extent.x
            minY = crate.center.y - extent.y
            maxY = crate.center.y + extent.y
        }

        /// How far the bounding boxes overlap along the axis where they overlap least (at most 0
        /// when they do not): a bound on how deep the shapes overlap.
        func boxOverlap(_ other: Box) -> Double {
            -Swift.max(other.minX - maxX, minX - other.maxX, other.minY - maxY, minY - other.maxY)
        }

        /// Whether some part of each overlaps the other's by more than `depth`.
        func overlaps(_ other: Box, deeperThan depth: Double) -> Bool {
            outlines.contains { outline in other.outlines.contains { outline.overlaps($0, deeperThan: depth) } }
        }

        /// The gap between the shapes: negative when they share area (then minus a penetration
        /// depth), 0 when touching. Shapes whose bounding boxes are over `contactDistance` apart
        /// give that gap at once.
        func separation(_ other: Box) -> Double {
            let bboxGap = Swift.max(other.minX - maxX, minX - other.maxX, other.minY - maxY, minY - other.maxY)
            if bboxGap > CrateOverlaps.contactDistance { return bboxGap }
            var gap = Double.infinity
            for outline in outlines { for theirs in other.outlines { gap = Swift.min(gap, outline.separation(theirs)) } }
            return gap
        }
    }
}
