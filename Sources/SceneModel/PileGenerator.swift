/// Generates many crates on a grid, with seeded random sizes and angles, ready to fall into a pile.
///
/// Crate i sits in grid cell (i % columns, i / columns), counted from the region's bottom-left corner.
/// Cells are wide enough for the largest crate at any angle, so no two crates overlap at the start.
/// For each crate the generator draws, in this order, width, height and angle from `SplitMix64(seed)`.
public struct PileGenerator: Sendable, Equatable {
    public var count: Int
    public var seed: UInt64
    public var minSize: Double
    public var maxSize: Double
    /// Mass per square pixel: a crate's mass is density × width × height.
    public var density: Double
    public var friction: Double
    public var elasticity: Double
    /// Empty space between neighbouring cells and around the grid, in pixels.
    public var gap: Double
    /// The rectangle the grid fills, in world coordinates; nil: the whole world.
    public var region: (min: Vec2, max: Vec2)?
    /// Colours dealt out in turn (crate i gets `colors[i % colors.count]`); empty: the scene's.
    public var colors: [RGB]

    public init(count: Int, seed: UInt64, minSize: Double, maxSize: Double, density: Double,
                friction: Double = Surface.standard.friction, elasticity: Double = Surface.standard.elasticity, gap: Double = 1, region: (min: Vec2, max: Vec2)? = nil, colors: [RGB] = []) {
        self.colors = colors
        self.count = count
        self.seed = seed
        self.minSize = minSize
        self.maxSize = maxSize
        self.density = density
        self.friction = friction
        self.elasticity = elasticity
        self.gap = gap
        self.region = region
    }

    public static func == (a: PileGenerator, b: PileGenerator) -> Bool {
        a.count == b.count && a.seed == b.seed && a.minSize == b.minSize && a.maxSize == b.maxSize && a.density == b.density
            && a.friction == b.friction && a.elasticity == b.elasticity && a.gap == b.gap
            && a.region?.min == b.region?.min && a.region?.max == b.region?.max && a.colors == b.colors
    }

    /// The grid's rectangle in a world of `size`.
    func area(in size: Vec2) -> (origin: Vec2, size: Vec2) {
        guard let region else { return (.zero, size) }
        return (region.min, region.max - region.min)
    }

    /// The side of one grid cell: the largest crate's diagonal plus the gap.
    public var cellSize: Double { (maxSize * 2.0.squareRoot()).rounded(.up) + gap }

    /// How many crates fit in the region (in a world of `size`), leaving `gap` free along its edges.
    public func capacity(in worldSize: Vec2) -> Int {
        let size = area(in: worldSize).size
        let columns = Int(((size.x - gap) / cellSize).rounded(.down))
        let rows = Int(((size.y - gap) / cellSize).rounded(.down))
        return max(0, columns) * max(0, rows)
    }

    public func crates(in worldSize: Vec2) -> [CrateSpec] {
        let (origin, size) = area(in: worldSize)
        let cell = cellSize
        let columns = max(1, Int(((size.x - gap) / cell).rounded(.down)))
        var random = SplitMix64(seed: seed)
        var result: [CrateSpec] = []
        result.reserveCapacity(count)
        for i in 0..<count {
            let width = random.next(in: minSize...maxSize)
            let height = random.next(in: minSize...maxSize)
            let angle = random.nextUnit() * 2 * Double.pi
            let center = origin + Vec2(gap + (Double(i % columns) + 0.5) * cell, gap + (Double(i / columns) + 0.5) * cell)
            result.append(CrateSpec(center: center, size: Vec2(width, height), angle: angle,
                                    mass: density * width * height, friction: friction, elasticity: elasticity,
                                    color: colors.isEmpty ? nil : colors[i % colors.count]))
        }
        return result
    }
}
