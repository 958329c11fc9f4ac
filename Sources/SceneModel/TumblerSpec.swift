/// A rectangular box of four walls around `center`, on a kinematic body turning at
/// `angularVelocity` rad/s (counter-clockwise for positive values): crates inside tumble.
public struct TumblerSpec: Sendable, Equatable {
    public var center: Vec2
    public var size: Vec2
    public var angularVelocity: Double
    public var radius: Double
    public var friction: Double
    public var elasticity: Double

    public init(center: Vec2, size: Vec2, angularVelocity: Double, radius: Double, friction: Double = Surface.standard.friction,
                elasticity: Double = Surface.standard.elasticity) {
        self.center = center
        self.size = size
        self.angularVelocity = angularVelocity
        self.radius = radius
        self.friction = friction
        self.elasticity = elasticity
    }

    /// The four walls in the body's own coordinates (centred on it): bottom, right, top, left.
    public var localWalls: [(from: Vec2, to: Vec2)] {
        let w = size.x / 2, h = size.y / 2
        let corners = [Vec2(-w, -h), Vec2(w, -h), Vec2(w, h), Vec2(-w, h)]
        return (0..<4).map { (corners[$0], corners[($0 + 1) % 4]) }
    }
}

