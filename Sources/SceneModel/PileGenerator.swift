/// Generates many crates on a grid, with seeded random sizes and angles, ready to fall into a pile.
///
/// Crate i sits in grid cell (i % columns, i / columns), counted from the region's bottom-left corner.
/// Cells are wide enough for the largest crate at any angle, so no two crates overlap at the start.
/// For each crate the generator draws from `SplitMix64(seed)`, in this order: for `mix`, the kind
/// (box, circle or polygon, alike likely); then for a box width, height and angle; for a circle
/// its diameter and angle; for a polygon its number of sides (in `sides`), its diameter (the
/// circle through its corners) and angle. A polygon is regular, its corners from a table of exact
/// constants (`RegularPolygon`), so no platform's maths library changes a generated scene.
public struct PileGenerator: Sendable, Equatable {
    /// What the generator makes.
    public enum Shapes: String, Sendable, CaseIterable {
        case box, circle, polygon, mix
    }

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
    public var shapes: Shapes
    /// The fewest and most sides of a generated polygon, within `RegularPolygon.sides`.
    public var sides: ClosedRange<Int>

    public init(count: Int, seed: UInt64, minSize: Double, maxSize: Double, density: Double,
                friction: Double = Surface.standard.friction, elasticity: Double = Surface.standard.elasticity, gap: Double = 1,
                region: (min: Vec2, max: Vec2)? = nil, colors: [RGB] = [], shapes: Shapes = .box, sides: ClosedRange<Int> = 3...8) {
        self.colors = colors
        self.shapes = shapes
        self.sides = sides
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
            && a.shapes == b.shapes && a.sides == b.sides
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
            let kind: Shapes = shapes != .mix ? shapes : [Shapes.box, .circle, .polygon][Int(random.next() % 3)]
            let shape: BodyShape, mass: Double
            switch kind {
            case .box, .mix:
                let width = random.next(in: minSize...maxSize)
                let height = random.next(in: minSize...maxSize)
                // In this order (floating point): every generated box scene keeps its masses and hashes.
                (shape, mass) = (.box(size: Vec2(width, height)), density * width * height)
            case .circle:
                let radius = random.next(in: minSize...maxSize) / 2
                (shape, mass) = (.circle(radius: radius), density * (Double.pi * radius * radius))
            case .polygon:
                let count = sides.lowerBound + Int(random.next() % UInt64(sides.count))
                let radius = random.next(in: minSize...maxSize) / 2
                let vertices = RegularPolygon.corners(sides: count, radius: radius)
                (shape, mass) = (.polygon(vertices: vertices, radius: 0), density * ConvexPolygonCheck.signedArea(vertices))
            }
            let angle = random.nextUnit() * 2 * Double.pi
            let center = origin + Vec2(gap + (Double(i % columns) + 0.5) * cell, gap + (Double(i / columns) + 0.5) * cell)
            result.append(CrateSpec(center: center, shape: shape, angle: angle, mass: mass, friction: friction,
                                    elasticity: elasticity, color: colors.isEmpty ? nil : colors[i % colors.count]))
        }
        return result
    }
}

/// Regular polygons with corners from exact constants: cos and sin of k·2π/n written out as the
/// nearest doubles (computed to 50 digits), so a generated polygon is the same
/// double for double on every platform, whatever its maths library.
public enum RegularPolygon {
    public static let sides = 3...8

    /// A regular polygon's area as a share of its diameter squared: (n/8)·sin(2π/n), from the table.
    public static func areaShare(sides: Int) -> Double {
        ConvexPolygonCheck.signedArea(corners(sides: sides, radius: 0.5))
    }

    /// The corners of a regular polygon of `sides` sides (in `RegularPolygon.sides`) round the origin,
    /// counter-clockwise from (radius, 0).
    public static func corners(sides: Int, radius: Double) -> [Vec2] {
        unitCorners[sides - Self.sides.lowerBound].map { Vec2($0.x * radius, $0.y * radius) }
    }

    private static let unitCorners: [[Vec2]] = [
        [Vec2(1, 0), Vec2(-0.5, 0.8660254037844386), Vec2(-0.5, -0.8660254037844386)],
        [Vec2(1, 0), Vec2(0, 1), Vec2(-1, 0), Vec2(0, -1)],
        [Vec2(1, 0), Vec2(0.30901699437494745, 0.9510565162951535), Vec2(-0.8090169943749475, 0.5877852522924731), Vec2(-0.8090169943749475, -0.5877852522924731), Vec2(0.30901699437494745, -0.9510565162951535)],
        [Vec2(1, 0), Vec2(0.5, 0.8660254037844386), Vec2(-0.5, 0.8660254037844386), Vec2(-1, 0), Vec2(-0.5, -0.8660254037844386), Vec2(0.5, -0.8660254037844386)],
        [Vec2(1, 0), Vec2(0.6234898018587335, 0.7818314824680298), Vec2(-0.2225209339563144, 0.9749279121818236), Vec2(-0.9009688679024191, 0.4338837391175581), Vec2(-0.9009688679024191, -0.4338837391175581), Vec2(-0.2225209339563144, -0.9749279121818236), Vec2(0.6234898018587335, -0.7818314824680298)],
        [Vec2(1, 0), Vec2(0.7071067811865476, 0.7071067811865476), Vec2(0, 1), Vec2(-0.7071067811865476, 0.7071067811865476), Vec2(-1, 0), Vec2(-0.7071067811865476, -0.7071067811865476), Vec2(0, -1), Vec2(0.7071067811865476, -0.7071067811865476)],
    ]
}
