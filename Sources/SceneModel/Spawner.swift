/// Drops crates one by one as a world runs (a scene's `spawners`): crate i (from 0) of `count`
/// appears at step `firstStep + i × interval`, at `at` moved by a seeded jitter and scaled by a
/// seeded factor, so a spawner scene is a pure function of its file. Each crate is a structural
/// change (`StructuralChange.addCrate`) made at that step boundary, after the boundary's input
/// lines, spawners in file order (docs/scenes.md, "Spawners").
public struct Spawner: Sendable, Equatable {
    /// Where crates appear (each crate's centre before jitter).
    public var at: Vec2
    /// Seconds between two crates, as written: `interval(stepRate:)` steps, rounded up.
    public var every: DecimalSeconds
    /// Seconds before the first crate (default 0).
    public var start: DecimalSeconds
    public var count: Int
    /// The crate each release makes, its centre replaced (its other values as written).
    public var crate: CrateSpec
    /// Each crate's centre moves by up to this much either way in x and y (uniform).
    public var jitter: Vec2
    /// Each crate's size is scaled by a factor drawn in this range (its mass by the factor squared,
    /// so its density stays); nil: as written.
    public var scale: ClosedRange<Double>?
    public var seed: UInt64

    public init(at: Vec2, every: DecimalSeconds, start: DecimalSeconds = DecimalSeconds("0")!, count: Int, crate: CrateSpec,
                jitter: Vec2 = .zero, scale: ClosedRange<Double>? = nil, seed: UInt64 = 0) {
        self.at = at
        self.every = every
        self.start = start
        self.count = count
        self.crate = crate
        self.jitter = jitter
        self.scale = scale
        self.seed = seed
    }

    /// Steps between two releases at `stepRate`: `every` × rate, rounded up, at least 1.
    public func interval(stepRate: Int) -> Int { max(1, every.stepsRoundedUp(atRate: stepRate)) }

    /// The step of the first release: `start` × rate, rounded up.
    public func firstStep(stepRate: Int) -> Int { start.stepsRoundedUp(atRate: stepRate) }

    /// The step of the last release, or nil when it is past `WorldState.maxStep` (or overflows).
    public func lastStep(stepRate: Int) -> Int? {
        let (span, overflow) = interval(stepRate: stepRate).multipliedReportingOverflow(by: max(0, count - 1))
        guard !overflow else { return nil }
        let (last, overflowAgain) = firstStep(stepRate: stepRate).addingReportingOverflow(span)
        return overflowAgain || last > WorldState.maxStep ? nil : last
    }

    /// Which crate (from 0) is released at `step`, if one is.
    public func release(atStep step: Int, stepRate: Int) -> Int? {
        let first = firstStep(stepRate: stepRate), interval = interval(stepRate: stepRate)
        guard step >= first, (step - first) % interval == 0 else { return nil }
        let index = (step - first) / interval
        return index < count ? index : nil
    }

    /// Crate `index`: three draws of SplitMix64 from `seed`, numbers 3i, 3i + 1 and 3i + 2 of its
    /// stream (x jitter, y jitter, scale), each in [0, 1) mapped onto its range.
    public func crate(_ index: Int) -> CrateSpec {
        // SplitMix64's state after n draws is seed + n × its increment: draw 3i is reached directly.
        var random = SplitMix64(seed: seed &+ UInt64(3 * index) &* 0x9e37_79b9_7f4a_7c15)
        let dx = jitter.x * (2 * random.nextUnit() - 1), dy = jitter.y * (2 * random.nextUnit() - 1)
        let unit = random.nextUnit()
        var spec = crate
        spec.center = Vec2(at.x + dx, at.y + dy)
        if let scale {
            let factor = scale.lowerBound + (scale.upperBound - scale.lowerBound) * unit
            spec.shape = spec.shape.scaled(by: factor)
            if spec.bodyType == .dynamic { spec.mass = crate.mass * factor * factor }
        }
        return spec
    }
}

extension BodyShape {
    /// The shape `factor` times as large, about the body's origin.
    public func scaled(by factor: Double) -> BodyShape {
        switch self {
        case let .box(size): .box(size: Vec2(size.x * factor, size.y * factor))
        case let .circle(radius): .circle(radius: radius * factor)
        case let .polygon(vertices, radius): .polygon(vertices: vertices.map { Vec2($0.x * factor, $0.y * factor) }, radius: radius * factor)
        case let .segment(a, b, radius): .segment(a: Vec2(a.x * factor, a.y * factor), b: Vec2(b.x * factor, b.y * factor), radius: radius * factor)
        case let .compound(parts):
            // Each part keeps its density, as the body's mass does (factor squared).
            .compound(parts: parts.map { part in
                var part = part
                part.shape = part.shape.scaled(by: factor)
                part.offset = Vec2(part.offset.x * factor, part.offset.y * factor)
                part.mass *= factor * factor
                return part
            })
        }
    }
}

extension Spawner {
    /// Most spawners a scene may hold.
    public static let maxSpawners = 100
    /// The largest scale factor (and the smallest is above 0).
    public static let maxScale = 100.0

    /// Problems with the spawner's own values, named by its keys (`every`, `crate.mass`), for a
    /// world of `worldSize` stepping `stepRate` times a second.
    public func problems(worldSize: Vec2, stepRate: Int) -> [FieldProblem] {
        var list = ProblemList()
        list.check("at", at, magnitude: Limits.coordinate)
        if at.isFinite, !(0...worldSize.x).contains(at.x) || !(0...worldSize.y).contains(at.y) {
            list.add("at", "[\(at.x), \(at.y)] is outside the world (0...\(worldSize.x), 0...\(worldSize.y))")
        }
        if every.scaled == 0 { list.add("every", "must be more than 0 s (at most one crate a step: 1/\(stepRate) s)") }
        list.check("count", count, in: 1...Limits.crateCount.upperBound)
        list.check("jitter", jitter, magnitude: Limits.coordinate)
        if jitter.x < 0 || jitter.y < 0 { list.add("jitter", "must be >= 0 in x and y") }
        // Every crate's centre within the coordinate limit, as every crate's is.
        if at.isFinite, jitter.isFinite, abs(at.x) + jitter.x > Limits.coordinate || abs(at.y) + jitter.y > Limits.coordinate {
            list.add("jitter", "moves crates past ±\(Limits.coordinate) px from at [\(at.x), \(at.y)]")
        }
        if let scale {
            if !(scale.lowerBound > 0 && scale.upperBound <= Self.maxScale) {
                list.add("scale", "must be within (0, \(Self.maxScale)], got [\(scale.lowerBound), \(scale.upperBound)]")
            }
        }
        if count >= 1, lastStep(stepRate: stepRate) == nil {
            list.add("count", "its last crate would come after step 2^53 (start + (count − 1) × every is too long)")
        }
        // The crate as released at both ends of the scale: each must be a valid crate.
        var ends = [crate]
        if let scale, scale.lowerBound > 0, scale.upperBound <= Self.maxScale {
            ends = [scale.lowerBound, scale.upperBound].map { factor in
                var spec = crate
                spec.shape = crate.shape.scaled(by: factor)
                if spec.bodyType == .dynamic { spec.mass = crate.mass * factor * factor }
                return spec
            }
        }
        var seen: Set<String> = []
        for spec in ends {
            for problem in spec.problems() where seen.insert(problem.description).inserted {
                list.add("crate.\(problem.field)", problem.message + (scale == nil ? "" : " (scaled)"))
            }
        }
        return list.problems
    }
}

/// A spawned crate that could not be made where it appears: its step, its spawner (from 0), its
/// number within the spawner (from 0), and why.
public struct RefusedSpawn: Sendable, Equatable {
    public var step: Int
    public var spawner: Int
    public var crate: Int
    public var reason: String

    public init(step: Int, spawner: Int, crate: Int, reason: String) {
        self.step = step
        self.spawner = spawner
        self.crate = crate
        self.reason = reason
    }
}
