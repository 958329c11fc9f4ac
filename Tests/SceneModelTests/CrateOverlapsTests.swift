import SceneModel
import Testing

/// `CrateOverlaps` finds through its grid what a test of every pair finds: each pair's overlap
/// comes from a check of those two crates alone (no grid to miss it), and the whole set's report
/// must count the same pairs and name the same crowded crates.
@Suite struct CrateOverlapsTests {
    /// Whether crates `a` and `b` share area, checked alone.
    static func overlap(_ a: CrateSpec, _ b: CrateSpec) -> Bool { CrateOverlaps.check([a, b], limit: 0).overlappingPairs == 1 }

    /// Random crates, boxes turned at any angle and circles, packed into `span` pixels so that
    /// many overlap, with a few large ones over several grid cells.
    static func crates(count: Int, span: Double, seed: UInt64) -> [CrateSpec] {
        var random = SplitMix64(seed: seed)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        return (0..<count).map { index in
            let center = Vec2(unit() * span, unit() * span)
            let large = index % 17 == 0
            let side = (large ? 40 : 4) + unit() * 12
            let shape: BodyShape = index % 3 == 0 ? .circle(radius: side / 2) : .box(size: Vec2(side, 4 + unit() * 12))
            return CrateSpec(center: center, shape: shape, angle: unit() * 6.28, mass: 1, friction: 0.5, elasticity: 0)
        }
    }

    @Test(arguments: [(60, 60.0, 1 as UInt64), (60, 150.0, 2), (120, 200.0, 3), (90, 40.0, 4)])
    func everyOverlappingPairIsFoundAndTheCrowdedAreNamed(count: Int, span: Double, seed: UInt64) {
        let crates = Self.crates(count: count, span: span, seed: seed)
        var overlapping = [[Int]](repeating: [], count: count)
        for i in 0..<count {
            for j in 0..<count where j != i && Self.overlap(crates[i], crates[j]) { overlapping[i].append(j) }
        }
        let pairs = overlapping.enumerated().map { i, others in others.filter { $0 > i }.count }.reduce(0, +)
        #expect(pairs > count / 4, "the scene should be crowded enough to test the grid")
        // No crate overlaps more than all the others: nothing stops the counting.
        #expect(CrateOverlaps.check(crates, limit: count - 1).overlappingPairs == pairs)

        let limit = 3
        let report = CrateOverlaps.check(crates, limit: limit, maxReported: 5)
        let crowded = overlapping.indices.filter { overlapping[$0].count > limit }
        #expect(report.crowded.map(\.index) == Array(crowded.prefix(5)))
        for entry in report.crowded {
            #expect(entry.overlaps == limit + 1)
            #expect(entry.examples.count == 3 && entry.examples.allSatisfy { overlapping[entry.index].contains($0) })
        }
    }

    /// Whether crates `a` and `b` overlap deeper than resting bodies do (a restored state's check,
    /// `deepOnly`), checked alone.
    static func deepOverlap(_ a: CrateSpec, _ b: CrateSpec) -> Bool {
        CrateOverlaps.check([a, b], limit: 0, deepOnly: true).overlappingPairs == 1
    }

    /// The crowding check of a restored state (`deepOnly`) gives through its grid the verdicts a
    /// test of every pair gives, on scattered and heaped bodies, sensors and one filter group
    /// among them (pairs that never push count nothing here, as before: a state's scene was
    /// checked for its broadphase pairs).
    @Test(arguments: [(60, 60.0, 1 as UInt64), (120, 200.0, 3), (90, 40.0, 4), (200, 30.0, 5)])
    func theRestoredStatesCheckFindsWhatEveryPairTestedFinds(count: Int, span: Double, seed: UInt64) {
        var crates = Self.crates(count: count, span: span, seed: seed)
        for index in crates.indices where index % 5 == 1 { crates[index].collision = CollisionSettings(sensor: true) }
        for index in crates.indices where index % 7 == 2 { crates[index].collision = CollisionSettings(filter: ShapeFilter(group: 1)) }
        Self.expectSameVerdicts(crates)
    }

    @Test(arguments: [CollisionSettings.standard, CollisionSettings(sensor: true), CollisionSettings(filter: ShapeFilter(group: 1))])
    func aHeapsVerdictIsEveryPairTestedsToo(collision: CollisionSettings) {
        let heap = (0..<40).map { CrateSpec(center: Vec2(100 + Double($0 % 3), 100), size: Vec2(10, 10), mass: 1, collision: collision) }
        let report = Self.expectSameVerdicts(heap)
        #expect(report.crowded.isEmpty == (collision != .standard), "a heap that pushes is crowded: \(report.crowded.map(\.index))")
        let spread = (0..<400).map { CrateSpec(center: Vec2(Double($0 % 20) * 10, Double($0 / 20) * 10), size: Vec2(10, 10), mass: 1,
                                               collision: collision) }
        #expect(Self.expectSameVerdicts(spread).crowded.isEmpty && CrateOverlaps.check(spread, deepOnly: true).overlappingPairs == 0)
    }

    /// Expects `check(crates, deepOnly: true)` to count the pairs and name the crowded bodies that
    /// testing every pair alone gives; returns its report at `limit` 3.
    @discardableResult
    static func expectSameVerdicts(_ crates: [CrateSpec]) -> CrateOverlaps.Report {
        var overlapping = [[Int]](repeating: [], count: crates.count)
        for i in crates.indices {
            for j in crates.indices where j != i && deepOverlap(crates[i], crates[j]) { overlapping[i].append(j) }
        }
        let pairs = overlapping.enumerated().map { i, others in others.filter { $0 > i }.count }.reduce(0, +)
        #expect(CrateOverlaps.check(crates, limit: crates.count - 1, deepOnly: true).overlappingPairs == pairs)
        let limit = 3
        let report = CrateOverlaps.check(crates, limit: limit, maxReported: 5, deepOnly: true)
        #expect(report.crowded.map(\.index) == Array(overlapping.indices.filter { overlapping[$0].count > limit }.prefix(5)))
        for entry in report.crowded { #expect(entry.examples.allSatisfy { overlapping[entry.index].contains($0) }) }
        return report
    }

    /// Crates that never push each other still cost Chipmunk a broadphase pair each (a sensor's
    /// is collided every step): a heap of 1,000 sensors, or of one filter group, on one spot
    /// counts its 499,500 pairs against the contact-pair limit, which refuses the scene (audit
    /// round 5, finding 2: 1,000 sensors took 15 s for 2 steps and passed validation). Crates
    /// merely near each other count nothing.
    @Test(arguments: [CollisionSettings(sensor: true), CollisionSettings(filter: ShapeFilter(group: 1))])
    func aHeapThatNeverPushesCountsItsBroadphasePairs(collision: CollisionSettings) {
        let heap = (0..<1000).map { _ in CrateSpec(center: Vec2(100, 100), size: Vec2(10, 10), mass: 1, collision: collision) }
        let report = CrateOverlaps.check(heap)
        #expect(report.contactPairs > Limits.contactPairs && report.crowded.isEmpty)
        let spread = (0..<1000).map { CrateSpec(center: Vec2(Double($0 % 40) * 12, Double($0 / 40) * 12), size: Vec2(10, 10), mass: 1, collision: collision) }
        #expect(CrateOverlaps.check(spread).contactPairs == 0)
    }
}
