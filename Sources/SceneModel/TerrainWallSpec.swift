/// A `walls` entry that is a picture (`{"image": "level.png", ...}`): its outline, traced and
/// simplified, becomes segment walls of `radius` with the entry's surface and collision settings.
public struct TerrainWallSpec: Sendable, Equatable {
    /// The PNG's path as the scene writes it (relative to the scene file, or absolute).
    public var image: String
    /// The solidity (0...1) the outline follows: solid where a pixel's is above it.
    public var threshold: Double
    /// World pixels per picture pixel.
    public var scale: Double
    /// Where the centre of the picture's bottom-left pixel lies in the world.
    public var origin: Vec2
    /// How far, in picture pixels, the simplified outline may stray from the traced one.
    public var tolerance: Double
    public var channel: TerrainChannel
    /// The segment walls' radius, in world pixels.
    public var radius: Double
    public var friction: Double
    public var elasticity: Double
    public var collision: CollisionSettings
    public var color: RGB?

    public init(image: String, threshold: Double = TerrainLimits.defaultThreshold, scale: Double = 1, origin: Vec2 = .zero,
                tolerance: Double = TerrainLimits.defaultTolerance, channel: TerrainChannel = .luminance, radius: Double,
                friction: Double = Surface.standard.friction, elasticity: Double = Surface.standard.elasticity,
                collision: CollisionSettings = .standard, color: RGB? = nil) {
        self.image = image
        self.threshold = threshold
        self.scale = scale
        self.origin = origin
        self.tolerance = tolerance
        self.channel = channel
        self.radius = radius
        self.friction = friction
        self.elasticity = elasticity
        self.collision = collision
        self.color = color
    }

    /// Problems with the entry's own values (the picture is checked as it is read).
    public func problems() -> [FieldProblem] {
        var list = ProblemList()
        if image.isEmpty { list.add("image", "must name a PNG file") }
        list.check("threshold", threshold, in: TerrainLimits.threshold)
        if threshold == TerrainLimits.threshold.lowerBound || threshold == TerrainLimits.threshold.upperBound {
            list.add("threshold", "must be strictly between 0 and 1 (at \(show(threshold)) every pixel is on one side), got \(show(threshold))")
        }
        list.check("scale", scale, in: TerrainLimits.scale)
        list.check("origin", origin, magnitude: Limits.coordinate)
        list.check("tolerance", tolerance, in: TerrainLimits.tolerance)
        list.checkSurface(radius: radius, friction: friction, elasticity: elasticity)
        return list.problems
    }

    /// The segment walls along `polylines` (picture coordinates, as `TerrainTracer` gives them):
    /// polyline by polyline, each from its first point to its last, one wall for each pair of
    /// neighbouring points, at `origin + scale × point`. Pairs whose two ends land on one world
    /// point are left out (a wall must have a length).
    public func walls(along polylines: [[Vec2]]) -> [WallSpec] {
        var walls: [WallSpec] = []
        for line in polylines {
            let points = line.map { Vec2(origin.x + scale * $0.x, origin.y + scale * $0.y) }
            for (from, to) in zip(points, points.dropFirst()) where from != to {
                walls.append(WallSpec(from: from, to: to, radius: radius, friction: friction, elasticity: elasticity,
                                      collision: collision, color: color))
            }
        }
        return walls
    }
}
